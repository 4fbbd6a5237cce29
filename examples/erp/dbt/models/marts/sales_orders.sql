-- Mart model: the ERP table as analysts query it.
select * from {{ source('erp', 'sales_orders') }}
