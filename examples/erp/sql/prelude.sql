-- Session-local helpers for the data generator (temporary: they vanish with
-- the session and never end up in the loaded database). Pseudo-randomness is
-- a hash of (erp.seed, tag, row number), so a load is fully deterministic.
CREATE OR REPLACE FUNCTION pg_temp.r(tag text, i integer) RETURNS numeric
LANGUAGE sql STABLE AS
$$ SELECT round((hashtext(current_setting('erp.seed') || ':' || tag || ':' || i)::numeric + 2147483648) / 4294967296, 9) $$;

-- ri: integer in [lo, hi].
CREATE OR REPLACE FUNCTION pg_temp.ri(tag text, i integer, lo integer, hi integer) RETURNS integer
LANGUAGE sql STABLE AS
$$ SELECT lo + floor(pg_temp.r(tag, i) * (hi - lo + 1))::integer $$;

-- pick: one element of vals.
CREATE OR REPLACE FUNCTION pg_temp.pick(tag text, i integer, vals text[]) RETURNS text
LANGUAGE sql STABLE AS
$$ SELECT vals[1 + floor(pg_temp.r(tag, i) * array_length(vals, 1))::integer] $$;

-- wpick: one element of vals, weighted by w.
CREATE OR REPLACE FUNCTION pg_temp.wpick(tag text, i integer, vals text[], w integer[]) RETURNS text
LANGUAGE plpgsql STABLE AS
$$
DECLARE
    total integer := 0;
    x numeric;
    k integer;
BEGIN
    FOR k IN 1 .. array_length(w, 1) LOOP total := total + w[k]; END LOOP;
    x := pg_temp.r(tag, i) * total;
    FOR k IN 1 .. array_length(w, 1) LOOP
        x := x - w[k];
        IF x < 0 THEN RETURN vals[k]; END IF;
    END LOOP;
    RETURN vals[array_length(vals, 1)];
END
$$;

-- dt: a date in [lo, hi].
CREATE OR REPLACE FUNCTION pg_temp.dt(tag text, i integer, lo date, hi date) RETURNS date
LANGUAGE sql STABLE AS
$$ SELECT lo + floor(pg_temp.r(tag, i) * (hi - lo + 1))::integer $$;

-- n: row count for a base count at the configured erp.scale, at least lo.
CREATE OR REPLACE FUNCTION pg_temp.n(base integer, lo integer) RETURNS integer
LANGUAGE sql STABLE AS
$$ SELECT greatest(lo, round(base * current_setting('erp.scale')::float8))::integer $$;

-- money: an amount in [lo, hi] rounded to cents.
CREATE OR REPLACE FUNCTION pg_temp.money(tag text, i integer, lo numeric, hi numeric) RETURNS numeric
LANGUAGE sql STABLE AS
$$ SELECT round(lo + (hi - lo) * pg_temp.r(tag, i), 2) $$;
