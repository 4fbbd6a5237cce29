-- Added to erp.sql for the "what models really write" cases: two date
-- columns on one row, doubles, a table shaped like Spider's tv_channel, and
-- a tenant schema (div_19) like the demo ERP's division mode.

CREATE TABLE cars (
    id int PRIMARY KEY,
    make text NOT NULL,
    model text NOT NULL,
    hp double precision,          -- one NULL: MAX must skip it
    mpg double precision NOT NULL,
    built int NOT NULL
);

CREATE TABLE rentals (
    id int PRIMARY KEY,
    car_id int NOT NULL REFERENCES cars,
    start_date date NOT NULL,
    end_date date NOT NULL,
    returned_at timestamp NOT NULL,
    fee double precision NOT NULL
);

CREATE TABLE tv_channel (
    id int PRIMARY KEY,
    series_name text NOT NULL,
    country text NOT NULL,
    language text NOT NULL
);

CREATE SCHEMA div_19;

CREATE TABLE div_19.timesheets (
    id int PRIMARY KEY,
    emp_code text NOT NULL,
    work_date date NOT NULL,
    hours double precision NOT NULL
);

INSERT INTO cars VALUES
    (1, 'Fiat', 'Panda', 69, 5.1, 2019),
    (2, 'BMW', 'M3', 480, 10.2, 2021),
    (3, 'Toyota', 'Yaris', 116, 4.2, 2022),
    (4, 'Ford', 'Mustang', 450, 12.4, 2020),
    (5, 'Renault', 'Zoe', NULL, 0, 2021),
    (6, 'Volvo', 'XC60', 250, 7.3, 2019),
    (7, 'Fiat', '500', 70, 4.9, 2023);

INSERT INTO rentals
SELECT i, 1 + i % 7,
       date '2024-01-05' + i * 11,
       date '2024-01-05' + i * 11 + (i * 5) % 47,
       (date '2024-01-05' + i * 11 + (i * 5) % 47) + (i % 24) * interval '1 hour' + interval '7 minutes',
       round((20 + i * 7.37)::numeric, 2)::double precision / 3
FROM generate_series(1, 30) i;

INSERT INTO tv_channel VALUES
    (1, 'Sky Radio', 'Italy', 'Italian'),
    (2, 'Sky Music', 'Italy', 'English'),
    (3, 'Music Box', 'Italy', 'Italian'),
    (4, 'MTV', 'UK', 'English'),
    (5, 'Rai 1', 'Italy', 'Italian'),
    (6, 'BBC One', 'UK', 'English'),
    (7, 'Arte', 'France', 'French');

INSERT INTO div_19.timesheets
SELECT i, 'E' || (1 + i % 4), date '2024-02-01' + i, 4 + (i % 5) * 1.25
FROM generate_series(1, 12) i;

ANALYZE;
