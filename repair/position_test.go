package repair

import "testing"

// TestPosition: a byte offset becomes PostgreSQL's 1-based character
// position (multi-byte characters count once); an unknown or outside
// offset is 0.
func TestPosition(t *testing.T) {
	for _, c := range []struct {
		sql          string
		offset, want int
	}{
		{"SELECT x FROM t", 7, 8},
		{"SELECT 'éé' FROM t", 17, 16},
		{"SELECT 1", 0, 1},
		{"SELECT 1", 8, 9},
		{"SELECT 1", 9, 0},
		{"SELECT 1", -1, 0},
	} {
		if got := Position(c.sql, c.offset); got != c.want {
			t.Errorf("Position(%q, %d) = %d, want %d", c.sql, c.offset, got, c.want)
		}
	}
}
