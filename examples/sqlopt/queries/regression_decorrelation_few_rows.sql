-- West customers with ids 100 to 120 whose orders add up to more than their credit limit: the
-- correlated SUM runs for two customers only, so aggregating every customer's orders first is more
-- work than the two filtered scans on PostgreSQL (its regression registry holds this shape); DuckDB
-- decorrelates it with a DELIM join, which the grouped join beats.
SELECT c.customer_id, c.segment, c.credit_limit
FROM customers c
WHERE c.region = 'west' AND c.customer_id BETWEEN 100 AND 120
  AND c.credit_limit < (SELECT SUM(o.amount) FROM orders o WHERE o.customer_id = c.customer_id)
ORDER BY c.customer_id
