-- A top-level correlated EXISTS: PostgreSQL runs it as a semi-join (a control there); DuckDB plans a
-- DELIM join around it, which the uncorrelated IN avoids.
SELECT c.customer_id, c.region
FROM customers c
WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND o.status = 'returned')
