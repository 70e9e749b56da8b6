-- West customers above their region's average total: the CTE is named twice, so it is computed
-- whole for every region before the filter on region applies.
WITH customer_totals AS (
  SELECT o.customer_id, c.region, SUM(o.amount) AS total, COUNT(*) AS orders
  FROM orders o JOIN customers c ON c.customer_id = o.customer_id
  GROUP BY o.customer_id, c.region
)
SELECT t.customer_id, t.total, t.orders
FROM customer_totals t
WHERE t.region = 'west'
  AND t.total > (SELECT AVG(a.total) FROM customer_totals a WHERE a.region = 'west')
