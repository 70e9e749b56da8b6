-- Orders that are large or whose customer returned something: an EXISTS under OR, which the
-- optimizer cannot turn into a semi-join.
SELECT o.order_id, o.amount
FROM orders o
WHERE o.amount > 390
   OR EXISTS (SELECT 1 FROM orders r WHERE r.customer_id = o.customer_id AND r.status = 'returned' AND r.order_day < 20)
