-- Business customers in the west (the first 400 ids) whose orders add up to more than their credit limit: a correlated scalar
-- aggregate, run once per customer unless the engine decorrelates it.
SELECT c.customer_id, c.segment, c.credit_limit
FROM customers c
WHERE c.region = 'west' AND c.segment = 'business' AND c.customer_id <= 400
  AND c.credit_limit < (SELECT SUM(o.amount) FROM orders o WHERE o.customer_id = c.customer_id)
ORDER BY c.customer_id
