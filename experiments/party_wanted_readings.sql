-- The measured effect of each Party Wanted reading (RULES.md, "Readings"), from the
-- paired-seed experiment experiments/party_wanted_readings.toml:
--   cardlab sql party_wanted_readings "$(cat experiments/party_wanted_readings.sql)"
-- Each variant plays the baseline's games (same seeds): a row is the mean of the per-game
-- differences, variant minus baseline, with a 95% normal interval (delta +- half_width);
-- the game is the unit of evidence (a cooperative game: one result per game).
-- "gained" / "lost": games the variant turned from loss to win / from win to loss.
WITH pairs AS (
    SELECT v.variant, v.n_players,
           (len(b.winners) > 0)::INT AS baseline_won, (len(v.winners) > 0)::INT AS variant_won,
           b.level_reached AS baseline_level, v.level_reached AS variant_level
    FROM games v
    JOIN games b ON b.variant = 'baseline' AND b.n_players = v.n_players AND b.game_index = v.game_index
    WHERE v.variant <> 'baseline'),
paired AS (
    SELECT variant, n_players, 'party win %' AS measure, 100 * baseline_won AS baseline_value,
           100 * variant_won AS variant_value FROM pairs
    UNION ALL
    SELECT variant, n_players, 'level reached', baseline_level, variant_level FROM pairs)
SELECT variant, n_players, measure, count(*) AS n, round(avg(baseline_value), 2) AS baseline_mean,
       round(avg(variant_value), 2) AS variant_mean, round(avg(variant_value - baseline_value), 2) AS delta,
       round(1.96 * stddev_samp(variant_value - baseline_value) / sqrt(count(*)), 2) AS half_width,
       sum(CASE WHEN variant_value > baseline_value THEN 1 ELSE 0 END) AS gained,
       sum(CASE WHEN variant_value < baseline_value THEN 1 ELSE 0 END) AS lost
FROM paired GROUP BY variant, n_players, measure ORDER BY variant, n_players, measure
