-- Join-planning fixture: one database, one schema per scenario.

-- A simple chain a -> b -> c.
CREATE SCHEMA chain;
CREATE TABLE chain.c (id int PRIMARY KEY);
CREATE TABLE chain.b (id int PRIMARY KEY, c_id int REFERENCES chain.c(id));
CREATE TABLE chain.a (id int PRIMARY KEY, b_id int REFERENCES chain.b(id));

-- Many-to-many through a junction table.
CREATE SCHEMA school;
CREATE TABLE school.students (id int PRIMARY KEY, name text);
CREATE TABLE school.courses (id int PRIMARY KEY, title text);
CREATE TABLE school.enrollments (
    student_id int REFERENCES school.students(id),
    course_id int REFERENCES school.courses(id),
    grade text,
    PRIMARY KEY (student_id, course_id)
);

-- Several keys between the same tables, a composite key, one-to-one.
CREATE SCHEMA shop;
CREATE TABLE shop.customers (id int PRIMARY KEY, name text);
CREATE TABLE shop.addresses (id int PRIMARY KEY, customer_id int REFERENCES shop.customers(id), street text);
CREATE TABLE shop.orders (
    id int PRIMARY KEY,
    customer_id int REFERENCES shop.customers(id),
    billing_addr_id int REFERENCES shop.addresses(id),
    shipping_addr_id int REFERENCES shop.addresses(id)
);
CREATE TABLE shop.products (id int PRIMARY KEY, name text);
CREATE TABLE shop.order_items (
    order_id int REFERENCES shop.orders(id),
    line_no int,
    product_id int REFERENCES shop.products(id),
    qty int,
    PRIMARY KEY (order_id, line_no)
);
CREATE TABLE shop.shipments (
    id int PRIMARY KEY,
    order_id int,
    line_no int,
    FOREIGN KEY (order_id, line_no) REFERENCES shop.order_items(order_id, line_no)
);
CREATE TABLE shop.customer_profiles (customer_id int PRIMARY KEY REFERENCES shop.customers(id), bio text);

-- Self-reference.
CREATE SCHEMA hr;
CREATE TABLE hr.departments (id int PRIMARY KEY, name text);
CREATE TABLE hr.employees (
    id int PRIMARY KEY,
    manager_id int REFERENCES hr.employees(id),
    department_id int REFERENCES hr.departments(id)
);

-- A hub: users is referenced by 22 tables. posts and invoices both point at
-- users, but are also connected by a longer path that avoids it.
CREATE SCHEMA social;
CREATE TABLE social.users (id int PRIMARY KEY, email text);
CREATE TABLE social.t01 (id int PRIMARY KEY, user_id int NOT NULL REFERENCES social.users(id), note text);
CREATE TABLE social.t02 (id int PRIMARY KEY, user_id int NOT NULL REFERENCES social.users(id), note text);
CREATE TABLE social.t03 (id int PRIMARY KEY, user_id int NOT NULL REFERENCES social.users(id), note text);
CREATE TABLE social.t04 (id int PRIMARY KEY, user_id int NOT NULL REFERENCES social.users(id), note text);
CREATE TABLE social.t05 (id int PRIMARY KEY, user_id int NOT NULL REFERENCES social.users(id), note text);
CREATE TABLE social.t06 (id int PRIMARY KEY, user_id int NOT NULL REFERENCES social.users(id), note text);
CREATE TABLE social.t07 (id int PRIMARY KEY, user_id int NOT NULL REFERENCES social.users(id), note text);
CREATE TABLE social.t08 (id int PRIMARY KEY, user_id int NOT NULL REFERENCES social.users(id), note text);
CREATE TABLE social.t09 (id int PRIMARY KEY, user_id int NOT NULL REFERENCES social.users(id), note text);
CREATE TABLE social.t10 (id int PRIMARY KEY, user_id int NOT NULL REFERENCES social.users(id), note text);
CREATE TABLE social.t11 (id int PRIMARY KEY, user_id int NOT NULL REFERENCES social.users(id), note text);
CREATE TABLE social.t12 (id int PRIMARY KEY, user_id int NOT NULL REFERENCES social.users(id), note text);
CREATE TABLE social.t13 (id int PRIMARY KEY, user_id int NOT NULL REFERENCES social.users(id), note text);
CREATE TABLE social.t14 (id int PRIMARY KEY, user_id int NOT NULL REFERENCES social.users(id), note text);
CREATE TABLE social.t15 (id int PRIMARY KEY, user_id int NOT NULL REFERENCES social.users(id), note text);
CREATE TABLE social.t16 (id int PRIMARY KEY, user_id int NOT NULL REFERENCES social.users(id), note text);
CREATE TABLE social.t17 (id int PRIMARY KEY, user_id int NOT NULL REFERENCES social.users(id), note text);
CREATE TABLE social.t18 (id int PRIMARY KEY, user_id int NOT NULL REFERENCES social.users(id), note text);
CREATE TABLE social.t19 (id int PRIMARY KEY, user_id int NOT NULL REFERENCES social.users(id), note text);
CREATE TABLE social.t20 (id int PRIMARY KEY, user_id int NOT NULL REFERENCES social.users(id), note text);
CREATE TABLE social.forums (id int PRIMARY KEY, title text);
CREATE TABLE social.threads (id int PRIMARY KEY, forum_id int REFERENCES social.forums(id));
CREATE TABLE social.posts (id int PRIMARY KEY, user_id int REFERENCES social.users(id), thread_id int REFERENCES social.threads(id));
CREATE TABLE social.invoices (id int PRIMARY KEY, user_id int REFERENCES social.users(id), forum_id int REFERENCES social.forums(id));

-- Names that need quoting, a reserved word, an alias that would be one.
CREATE SCHEMA legacy;
CREATE TABLE legacy."Account" ("AccountID" int PRIMARY KEY);
CREATE TABLE legacy."order" (id int PRIMARY KEY, account_id int REFERENCES legacy."Account"("AccountID"));
CREATE TABLE legacy.all_stats (id int PRIMARY KEY, order_id int REFERENCES legacy."order"(id));

-- An island: no keys to anything.
CREATE SCHEMA island;
CREATE TABLE island.lonely (id int PRIMARY KEY);

-- No declared keys at all: WithInferredEdges guesses them from names.
CREATE SCHEMA loose;
CREATE TABLE loose.authors (aid bigint PRIMARY KEY, name text);
CREATE TABLE loose.papers (pid bigint PRIMARY KEY, title text);
CREATE TABLE loose.writes (aid bigint NOT NULL, pid bigint NOT NULL);
CREATE TABLE loose.customers (id int PRIMARY KEY, name text);
CREATE TABLE loose.orders (id int PRIMARY KEY, customer_id int, note text);
CREATE TABLE loose.cities (city_name text, state_name text);
CREATE TABLE loose.states (state_name text, population int);
