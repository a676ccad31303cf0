-- The measured effect of each Divvy reading (RULES.md, "Readings"), from the paired-seed
-- experiment experiments/divvy_readings.toml:
--   cardlab sql divvy_readings "$(cat experiments/divvy_readings.sql)"
-- Each variant plays the baseline's games (same seeds): a row is the mean of the per-game
-- differences, variant minus baseline, with a 95% normal interval (delta +- half_width); the
-- game is the unit of evidence. "another winner %" is the share of games whose winner (or
-- draw) differs from the baseline's game.
WITH pairs AS (
    SELECT v.variant, b.winners AS baseline_winners, v.winners AS variant_winners,
           b.turns AS baseline_turns, v.turns AS variant_turns,
           b.end_reason AS baseline_end, v.end_reason AS variant_end
    FROM games v
    JOIN games b ON b.variant = 'baseline' AND b.n_players = v.n_players AND b.game_index = v.game_index
    WHERE v.variant <> 'baseline'),
paired AS (
    SELECT variant, 'seat 0 win %' AS measure, 100 * list_contains(baseline_winners, 0)::INT AS baseline_value,
           100 * list_contains(variant_winners, 0)::INT AS variant_value FROM pairs
    UNION ALL
    SELECT variant, 'draw %', 100 * (len(baseline_winners) = 0)::INT, 100 * (len(variant_winners) = 0)::INT FROM pairs
    UNION ALL
    SELECT variant, 'deck exhausted %', 100 * (baseline_end = 'deck_exhausted')::INT,
           100 * (variant_end = 'deck_exhausted')::INT FROM pairs
    UNION ALL
    SELECT variant, 'rounds', baseline_turns, variant_turns FROM pairs
    UNION ALL
    SELECT variant, 'another winner %', 0, 100 * (baseline_winners <> variant_winners)::INT FROM pairs)
SELECT variant, measure, count(*) AS n, round(avg(baseline_value), 2) AS baseline_mean,
       round(avg(variant_value), 2) AS variant_mean, round(avg(variant_value - baseline_value), 2) AS delta,
       round(1.96 * stddev_samp(variant_value - baseline_value) / sqrt(count(*)), 2) AS half_width
FROM paired GROUP BY variant, measure ORDER BY variant, measure
