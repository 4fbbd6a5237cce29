-- A foreign key into a schema that introspection filters out.
CREATE SCHEMA hidden;
CREATE TABLE hidden.parent (a int, b int, PRIMARY KEY (a, b));
CREATE TABLE public.child (id int PRIMARY KEY, pa int, pb int, FOREIGN KEY (pa, pb) REFERENCES hidden.parent (a, b));
