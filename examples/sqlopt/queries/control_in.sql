-- Control: an uncorrelated IN, already a semi-join on both engines.
SELECT o.order_id, o.amount
FROM orders o
WHERE o.customer_id IN (SELECT customer_id FROM customers WHERE region = 'west' AND segment = 'business')
