package link

import "strings"

// stopwords are question words that never name schema elements.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the of in on at for to by with from and or not no is are was were be been
		being am do does did doing has have had having how many much what which who whom whose where when why
		show shows list give me my we our us you your i find get all each every per that this these those there
		their its it as than then into over under between during about above below after before up down out off
		can could would should will shall may might must please tell display return returns returning let
		any some such only also just more most less least other same so too very own both few nor
		but if else while whether again further once here s t don want need know see
		since until till ago via within whom whose versus vs etc`) {
		m[w] = true
	}
	return m
}()

// weakWords carry little meaning on their own in a column name; a phrase
// matching the rest of the name ("customer" for customer_id) is nearly exact.
var weakWords = map[string]bool{"id": true, "key": true, "number": true, "code": true, "no": true, "nbr": true, "cd": true, "num": true}
