package link

// weakWords carry little meaning on their own in a column name; a phrase
// matching the rest of the name ("customer" for customer_id) is nearly exact.
var weakWords = map[string]bool{"id": true, "key": true, "number": true, "code": true, "no": true, "nbr": true, "cd": true, "num": true}
