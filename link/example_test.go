package link_test

import (
	"context"
	"fmt"

	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/schema"
)

func ExampleColumnGloss() {
	t := &schema.Table{Schema: "sales", Name: "invoices", Columns: []schema.Column{
		{Name: "tot_amt", Type: "numeric(14,2)"},
		{Name: "cust_id", Type: "integer"},
	}, ForeignKeys: []schema.ForeignKey{{Columns: []string{"cust_id"}, RefSchema: "sales", RefTable: "customers", RefColumns: []string{"cust_id"}}}}
	for i := range t.Columns {
		fmt.Println(link.ColumnGloss(t, &t.Columns[i]))
	}
	// Output:
	// total amount (money)
	// customer id (foreign key to sales.customers)
}

func ExampleKeyphrases() {
	for _, k := range link.Keyphrases("Deals of 'Acme Corp' in Negotiation since March 2024") {
		fmt.Printf("%s: %s\n", k.Kind, k.Text)
	}
	// Output:
	// ngram: Deals
	// quoted: Acme Corp
	// capitalized: Negotiation
	// ngram: Negotiation
	// date: March 2024
}

func ExampleLinker_Link() {
	customers := &schema.Table{Schema: "sales", Name: "customers", Kind: schema.KindTable,
		Columns: []schema.Column{
			{Name: "cust_id", Type: "integer", PrimaryKey: true},
			{Name: "cust_nm", Type: "text"},
			{Name: "region", Type: "text"},
		}, PrimaryKey: []string{"cust_id"}}
	deals := &schema.Table{Schema: "crm", Name: "deals", Kind: schema.KindTable,
		Columns: []schema.Column{
			{Name: "deal_id", Type: "integer", PrimaryKey: true},
			{Name: "cust_id", Type: "integer"},
			{Name: "stage", Type: "crm.deal_stage", EnumLabels: []string{"Prospecting", "Negotiation", "Closed Won"}},
			{Name: "deal_amt", Type: "numeric(14,2)"},
		}, PrimaryKey: []string{"deal_id"},
		ForeignKeys: []schema.ForeignKey{{Columns: []string{"cust_id"}, RefSchema: "sales", RefTable: "customers", RefColumns: []string{"cust_id"}}}}
	cat := schema.NewCatalog([]schema.Schema{{Name: "crm"}, {Name: "sales"}}, []*schema.Table{customers, deals}, nil)

	l := link.New(cat)
	r := l.Link(context.Background(), "Total deal amount in Negotiation by region", "", nil)
	fmt.Println("table:", r.Tables[0].Table)
	fmt.Println("column:", r.Columns[0].Table+"."+r.Columns[0].Column, r.Columns[0].Reason)
	fmt.Println("value:", r.Values[0])
	fmt.Println("warning:", r.Warnings[0].Code)
	fmt.Println(r.Warnings[0].Message)
	// Output:
	// table: crm.deals
	// column: crm.deals.deal_amt gloss
	// value: crm.deals.stage = 'Negotiation'
	// warning: column_redirect
	// crm.deals has no column `region`; its FK parent sales.customers has `region` — join sales.customers (deals.cust_id = customers.cust_id)
}
