-- Control: a CTE named once, which PostgreSQL inlines and DuckDB filters through.
WITH customer_totals AS (
  SELECT o.customer_id, SUM(o.amount) AS total FROM orders o GROUP BY o.customer_id
)
SELECT t.customer_id, t.total FROM customer_totals t WHERE t.customer_id = 42
