-- The measured effect of each Ring of Chaos reading (RULES.md, "Readings"), from the paired-seed
-- experiment experiments/ring_of_chaos_readings.toml:
--   cardlab sql ring_of_chaos_readings "$(cat experiments/ring_of_chaos_readings.sql)"
-- Each variant plays the baseline's games (same seeds): a row is the mean of the per-game
-- differences, variant minus baseline, with a 95% normal interval (delta +- half_width). A party
-- and the first player appear at most once per game, so the game is the unit of evidence.
WITH seats AS (
    SELECT v.variant, v.faction, v.seat = g.first_player AS first_player,
           100 * b.won::INT AS baseline_value, 100 * v.won::INT AS variant_value
    FROM players v
    JOIN players b ON b.variant = 'baseline' AND b.n_players = v.n_players AND b.game_index = v.game_index
        AND b.seat = v.seat
    JOIN games g ON g.variant = v.variant AND g.n_players = v.n_players AND g.game_index = v.game_index
    WHERE v.variant <> 'baseline'),
paired AS (
    SELECT variant, 'party win %' AS measure, faction AS name, baseline_value, variant_value FROM seats
    UNION ALL
    SELECT variant, 'first player win %', '', baseline_value, variant_value FROM seats WHERE first_player
    UNION ALL
    SELECT v.variant, 'turns', '', b.turns, v.turns
    FROM games v
    JOIN games b ON b.variant = 'baseline' AND b.n_players = v.n_players AND b.game_index = v.game_index
    WHERE v.variant <> 'baseline')
SELECT variant, measure, name, count(*) AS n, round(avg(baseline_value), 2) AS baseline_mean,
       round(avg(variant_value), 2) AS variant_mean, round(avg(variant_value - baseline_value), 2) AS delta,
       round(1.96 * stddev_samp(variant_value - baseline_value) / sqrt(count(*)), 2) AS half_width
FROM paired GROUP BY variant, measure, name ORDER BY variant, measure, name
