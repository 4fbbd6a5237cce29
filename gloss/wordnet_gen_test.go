package gloss

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/gentest"
)

var update = flag.Bool("update", false, "rewrite wordnet.txt from WordNet and seed.txt")

//go:generate go test -run TestWordNetUpToDate -update

// TestWordNetUpToDate regenerates wordnet.txt in memory from the WordNet
// database (Debian's wordnet-base: /usr/share/wordnet, or the directory in
// NL2SQL_WORDNET_DIR) and seed.txt, and requires the checked-in file to
// match, so that a change of the seed list or of the selection rule cannot
// leave the embedded data behind (go generate ./gloss rewrites it).
func TestWordNetUpToDate(t *testing.T) {
	dir := os.Getenv("NL2SQL_WORDNET_DIR")
	if dir == "" {
		dir = "/usr/share/wordnet"
	}
	if _, err := os.Stat(filepath.Join(dir, "index.noun")); err != nil {
		t.Skipf("WordNet not found in %s (apt-get install wordnet-base, or set NL2SQL_WORDNET_DIR): wordnet.txt not checked", dir)
	}
	seeds, err := os.ReadFile("seed.txt")
	if err != nil {
		t.Fatal(err)
	}
	// NL2SQL_WORDNET_TRACE=FILE lists each seed's senses there, to review
	// the choices.
	var trace io.Writer
	if path := os.Getenv("NL2SQL_WORDNET_TRACE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		trace = f
	}
	src, err := generateWordNet(dir, seeds, trace)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseThesaurus(bytes.NewReader(src)); err != nil {
		t.Fatalf("generated data does not parse: %v", err)
	}
	gentest.UpToDate(t, "wordnet.txt", src, *update, "go generate ./gloss")
}

// The selection rule: the automatic senses of a word are sense 1 and those
// of senses 2..autoMaxSense tagged at least autoMinCount times and at least
// 1/autoRatio as often as sense 1, all in a lexicographer file of
// businessLexFiles and none where the word is a proper name.
const (
	autoMaxSense = 4
	autoMinCount = 2
	autoRatio    = 5
	maxPolysemy  = 7
)

// businessLexFiles are the lexicographer files (see lexnames(5WN)) whose
// senses fit business text: people, groups, possessions, acts, artifacts,
// documents, time, quantities...; not animals, plants, foods, substances or
// body parts. Verbs: possession, social, communication, creation, motion,
// change, stative.
var businessLexFiles = map[int]bool{
	3: true, 4: true, 6: true, 7: true, 9: true, 10: true, 11: true, 14: true, 15: true,
	18: true, 21: true, 22: true, 23: true, 24: true, 26: true, 28: true,
	30: true, 32: true, 36: true, 38: true, 40: true, 41: true, 42: true,
}

// wnSynset is one WordNet synonym set.
type wnSynset struct {
	pos     byte // 'n' or 'v'
	offset  int
	lexFile int
	lemmas  []string // as in the data file: underscores, original case
	lexIDs  []int
	gloss   string
}

type wordNet struct {
	dir    string
	data   map[byte][]byte           // pos -> data file
	index  map[byte]map[string][]int // pos -> lemma -> synset offsets in sense order
	counts map[string]int            // sense key -> tag count
	cache  map[string]*wnSynset      // "n:offset"
}

func loadWordNet(dir string) (*wordNet, error) {
	wn := &wordNet{dir: dir, data: map[byte][]byte{}, index: map[byte]map[string][]int{}, counts: map[string]int{}, cache: map[string]*wnSynset{}}
	for pos, name := range map[byte]string{'n': "noun", 'v': "verb"} {
		data, err := os.ReadFile(filepath.Join(dir, "data."+name))
		if err != nil {
			return nil, err
		}
		wn.data[pos] = data
		idx, err := os.ReadFile(filepath.Join(dir, "index."+name))
		if err != nil {
			return nil, err
		}
		m := map[string][]int{}
		for line := range strings.SplitSeq(string(idx), "\n") {
			if line == "" || line[0] == ' ' {
				continue
			}
			f := strings.Fields(line)
			if len(f) < 6 {
				return nil, fmt.Errorf("index.%s: short line %q", name, line)
			}
			nSyn, err1 := strconv.Atoi(f[2])
			nPtr, err2 := strconv.Atoi(f[3])
			if err := errors.Join(err1, err2); err != nil || len(f) != 4+nPtr+2+nSyn {
				return nil, fmt.Errorf("index.%s: bad line %q", name, line)
			}
			var offs []int
			for _, o := range f[4+nPtr+2:] {
				n, err := strconv.Atoi(o)
				if err != nil {
					return nil, fmt.Errorf("index.%s: bad offset in %q", name, line)
				}
				offs = append(offs, n)
			}
			m[f[0]] = offs
		}
		wn.index[pos] = m
	}
	cnt, err := os.ReadFile(filepath.Join(dir, "cntlist.rev"))
	if err != nil {
		return nil, err
	}
	for line := range strings.SplitSeq(string(cnt), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			continue
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("cntlist.rev: bad line %q", line)
		}
		wn.counts[f[0]] = n
	}
	return wn, nil
}

// synset reads the synset at offset of the pos data file.
func (wn *wordNet) synset(pos byte, offset int) (*wnSynset, error) {
	key := fmt.Sprintf("%c:%d", pos, offset)
	if s := wn.cache[key]; s != nil {
		return s, nil
	}
	data := wn.data[pos]
	if offset < 0 || offset >= len(data) {
		return nil, fmt.Errorf("offset %d out of range", offset)
	}
	line := data[offset:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	f := strings.Fields(string(line))
	if len(f) < 4 || f[0] != fmt.Sprintf("%08d", offset) {
		return nil, fmt.Errorf("no synset at %c %d", pos, offset)
	}
	lex, err1 := strconv.Atoi(f[1])
	w, err2 := strconv.ParseInt(f[3], 16, 0)
	if err := errors.Join(err1, err2); err != nil || len(f) < 4+2*int(w) {
		return nil, fmt.Errorf("bad synset at %c %d", pos, offset)
	}
	s := &wnSynset{pos: pos, offset: offset, lexFile: lex}
	if _, g, ok := strings.Cut(string(line), " | "); ok {
		s.gloss = strings.TrimSpace(g)
	}
	for i := range int(w) {
		id, err := strconv.ParseInt(f[5+2*i], 16, 0)
		if err != nil {
			return nil, fmt.Errorf("bad lex_id at %c %d", pos, offset)
		}
		s.lemmas = append(s.lemmas, f[4+2*i])
		s.lexIDs = append(s.lexIDs, int(id))
	}
	wn.cache[key] = s
	return s, nil
}

// count is the tag count of lemma in synset s (0 when untagged).
func (wn *wordNet) count(lemma string, s *wnSynset) int {
	for i, l := range s.lemmas {
		if strings.EqualFold(l, lemma) {
			ssType := 1
			if s.pos == 'v' {
				ssType = 2
			}
			return wn.counts[fmt.Sprintf("%s%%%d:%02d:%02d::", strings.ToLower(l), ssType, s.lexFile, s.lexIDs[i])]
		}
	}
	return 0
}

// senses returns the synsets of lemma (WordNet form: lower case,
// underscores) for pos, in sense order.
func (wn *wordNet) senses(pos byte, lemma string) ([]*wnSynset, error) {
	var out []*wnSynset
	for _, off := range wn.index[pos][lemma] {
		s, err := wn.synset(pos, off)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// automatic returns the senses of lemma the selection rule keeps.
func (wn *wordNet) automatic(pos byte, lemma string) ([]*wnSynset, error) {
	ss, err := wn.senses(pos, lemma)
	if err != nil || len(ss) == 0 {
		return nil, err
	}
	first := wn.count(lemma, ss[0])
	var out []*wnSynset
	for i, s := range ss {
		if i >= autoMaxSense {
			break
		}
		if !businessLexFiles[s.lexFile] || properName(lemma, s) {
			continue
		}
		c := wn.count(lemma, s)
		if i == 0 || (c >= autoMinCount && c*autoRatio >= first) {
			out = append(out, s)
		}
	}
	return out, nil
}

// automaticAny returns the senses of a word that no seed chose: its noun
// and verb senses compete, each kept when among the first autoMaxSense of
// its part of speech and tagged at least autoMinCount times and at least
// 1/autoRatio as often as the word's most frequent sense (which is always
// kept), so that "bushel" (a measure) does not lead to its verb "repair";
// an untagged word keeps its first noun and verb senses.
func (wn *wordNet) automaticAny(lemma string) ([]*wnSynset, error) {
	var all [2][]*wnSynset
	best, bestS := 0, (*wnSynset)(nil)
	for i, pos := range []byte{'n', 'v'} {
		ss, err := wn.senses(pos, lemma)
		if err != nil {
			return nil, err
		}
		all[i] = ss
		for _, s := range ss {
			if c := wn.count(lemma, s); c > best {
				best, bestS = c, s
			}
		}
	}
	var out []*wnSynset
	for _, ss := range all {
		for i, s := range ss {
			if i >= autoMaxSense {
				break
			}
			if !businessLexFiles[s.lexFile] || properName(lemma, s) {
				continue
			}
			c := wn.count(lemma, s)
			if s == bestS || (best == 0 && i == 0) || (c >= autoMinCount && c*autoRatio >= best) {
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// polysemous reports whether lemma has more than maxPolysemy noun and verb
// senses: too vague ("line", "house", "take") to stand for a synonym unless
// a seed chose it.
func (wn *wordNet) polysemous(lemma string) bool {
	return len(wn.index['n'][lemma])+len(wn.index['v'][lemma]) > maxPolysemy
}

// properName reports whether lemma is capitalized in s: a name ("Teller",
// the physicist), not a common noun.
func properName(lemma string, s *wnSynset) bool {
	for _, l := range s.lemmas {
		if strings.EqualFold(l, lemma) {
			return l != strings.ToLower(l)
		}
	}
	return false
}

// seedChoice is one line of seed.txt.
type seedChoice struct {
	lemma string // WordNet form
	specs []string
}

// parseSeeds reads seed.txt: the seeds, and the words it excludes.
func parseSeeds(src []byte) ([]seedChoice, map[string]bool, error) {
	var out []seedChoice
	excluded := map[string]bool{}
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(src))
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if w, ok := strings.CutPrefix(strings.TrimSpace(line), "-"); ok {
			w = strings.Join(strings.Fields(strings.ToLower(w)), "_")
			if w == "" {
				return nil, nil, fmt.Errorf("seed.txt:%d: - without a word", n)
			}
			excluded[w] = true
			continue
		}
		word, spec, _ := strings.Cut(line, ":")
		word = strings.Join(strings.Fields(strings.ToLower(word)), "_")
		if word == "" {
			if strings.TrimSpace(spec) != "" {
				return nil, nil, fmt.Errorf("seed.txt:%d: sense choice without a word", n)
			}
			continue
		}
		if prev, dup := seen[word]; dup {
			return nil, nil, fmt.Errorf("seed.txt:%d: %q already on line %d", n, word, prev)
		}
		seen[word] = n
		specs := strings.Fields(spec)
		if len(specs) == 0 {
			specs = []string{"n"}
		}
		for _, s := range specs {
			if s != "n" && s != "v" && (len(s) < 2 || (s[0] != 'n' && s[0] != 'v')) {
				return nil, nil, fmt.Errorf("seed.txt:%d: bad sense choice %q", n, s)
			}
			if len(s) > 1 {
				if k, err := strconv.Atoi(s[1:]); err != nil || k < 1 {
					return nil, nil, fmt.Errorf("seed.txt:%d: bad sense choice %q", n, s)
				}
			}
		}
		out = append(out, seedChoice{lemma: word, specs: specs})
	}
	for _, c := range out {
		if excluded[c.lemma] {
			return nil, nil, fmt.Errorf("seed.txt: %q is both a seed and excluded", c.lemma)
		}
	}
	return out, excluded, sc.Err()
}

// chosen returns the senses of a seed in the order of its choices.
func (wn *wordNet) chosen(c seedChoice) ([]*wnSynset, error) {
	var out []*wnSynset
	for _, spec := range c.specs {
		pos := spec[0]
		if len(spec) == 1 {
			ss, err := wn.automatic(pos, c.lemma)
			if err != nil {
				return nil, err
			}
			if len(ss) == 0 {
				return nil, fmt.Errorf("seed %q: no %c sense that fits (choose one explicitly)", c.lemma, pos)
			}
			out = append(out, ss...)
			continue
		}
		k, _ := strconv.Atoi(spec[1:])
		ss, err := wn.senses(pos, c.lemma)
		if err != nil {
			return nil, err
		}
		if k > len(ss) {
			return nil, fmt.Errorf("seed %q: %c has %d senses, not %d", c.lemma, pos, len(ss), k)
		}
		out = append(out, ss[k-1])
	}
	return out, nil
}

// generateWordNet writes wordnet.txt: for every lemma of a synset chosen
// by a seed, a line "lemma -> synonyms" with the other lemmas of those of
// its own senses (a seed's choices; for any other lemma, automaticAny)
// that some seed chose, best sense first; words seed.txt excludes and
// polysemous words that are no seed are left out. Then the irregular
// plurals and verb forms (WordNet's exception lists) of the words that
// have a line.
func generateWordNet(dir string, seedSrc []byte, trace io.Writer) ([]byte, error) {
	seeds, excluded, err := parseSeeds(seedSrc)
	if err != nil {
		return nil, err
	}
	wn, err := loadWordNet(dir)
	if err != nil {
		return nil, err
	}
	included := map[*wnSynset]bool{}
	choice := map[string][]*wnSynset{} // seed lemma -> chosen synsets
	var errs []error
	for _, c := range seeds {
		if len(wn.index['n'][c.lemma]) == 0 && len(wn.index['v'][c.lemma]) == 0 {
			errs = append(errs, fmt.Errorf("seed %q is not in WordNet", c.lemma))
			continue
		}
		ss, err := wn.chosen(c)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		choice[c.lemma] = ss
		if trace != nil {
			fmt.Fprintf(trace, "%s\n", c.lemma)
			for _, s := range ss {
				sense := slices.Index(wn.index[s.pos][c.lemma], s.offset) + 1
				fmt.Fprintf(trace, "\t%c%d (%d) lex %02d: %s -- %.80s\n", s.pos, sense, wn.count(c.lemma, s), s.lexFile, strings.Join(s.lemmas, ", "), s.gloss)
			}
		}
		for _, s := range ss {
			included[s] = true
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	// Every lemma of an included synset, in WordNet form.
	lemmas := map[string]bool{}
	for s := range included {
		for _, l := range s.lemmas {
			lemmas[strings.ToLower(l)] = true
		}
	}
	// A word is left out when seed.txt excludes it, or when it is not a
	// seed and has too many senses.
	out := func(lemma string) bool {
		_, seed := choice[lemma]
		return excluded[lemma] || (!seed && wn.polysemous(lemma)) || !validTerm(term(lemma))
	}
	lines := map[string][]string{}
	hasPOS := map[string]map[byte]bool{} // key -> the parts of speech of its line
	for lemma := range lemmas {
		if out(lemma) {
			continue
		}
		ss, ok := choice[lemma]
		if !ok {
			var err error
			if ss, err = wn.automaticAny(lemma); err != nil {
				return nil, err
			}
		}
		key := term(lemma)
		var related []string
		pos := map[byte]bool{}
		for _, s := range ss {
			if !included[s] {
				continue
			}
			pos[s.pos] = true
			for _, l := range s.lemmas {
				t := term(l)
				if t != key && !out(strings.ToLower(l)) && !slices.Contains(related, t) {
					related = append(related, t)
				}
			}
		}
		if len(related) > 0 {
			lines[key] = related
			hasPOS[key] = pos
		}
	}
	if trace != nil {
		var dropped []string
		for lemma := range lemmas {
			if out(lemma) {
				dropped = append(dropped, term(lemma))
			}
		}
		slices.Sort(dropped)
		fmt.Fprintf(trace, "left out (excluded or polysemous): %s\n", strings.Join(dropped, ", "))
	}

	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("\n# Synonyms: a word -> its synonyms, best sense first.\n")
	for _, k := range slices.Sorted(maps.Keys(lines)) {
		fmt.Fprintf(&b, "%s -> %s\n", k, strings.Join(lines[k], ", "))
	}
	b.WriteString("\n# Irregular forms (WordNet's exception lists): form = base.\n")
	var forms []string
	for _, name := range []string{"noun.exc", "verb.exc"} {
		pos := name[0]
		exc, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		for line := range strings.SplitSeq(string(exc), "\n") {
			f := strings.Fields(line)
			if len(f) < 2 {
				continue
			}
			form := term(f[0])
			if _, isKey := lines[form]; isKey || !validTerm(form) {
				continue
			}
			for _, base := range f[1:] {
				// A noun's plural for a word linked as a noun, a verb's
				// forms for one linked as a verb ("left" is no form of
				// "leave", the absence from work).
				if hasPOS[term(base)][pos] && term(base) != form {
					forms = append(forms, form+" = "+term(base))
				}
			}
		}
	}
	slices.Sort(forms)
	for _, f := range slices.Compact(forms) {
		b.WriteString(f + "\n")
	}
	return b.Bytes(), nil
}

// term turns a WordNet lemma into thesaurus form: lower case, words
// separated by one space.
func term(lemma string) string {
	return strings.Join(strings.Fields(strings.ToLower(strings.ReplaceAll(lemma, "_", " "))), " ")
}

// validTerm reports whether t may stand in the text format (WordNet has a
// few lemmas with characters the format reserves).
func validTerm(t string) bool {
	_, err := normalizeTerm(t)
	return err == nil
}

const header = `# Code generated by TestWordNetUpToDate (go generate ./gloss) from
# WordNet 3.0 and seed.txt. DO NOT EDIT.
#
# For each word of seed.txt, the synonym sets of its business senses; for
# every word of those sets, its synonyms among them, from its own frequent
# senses. Format: see doc.go.
#
# WordNet 3.0 license (also in WORDNET-LICENSE):
#
# This software and database is being provided to you, the LICENSEE, by
# Princeton University under the following license.  By obtaining, using
# and/or copying this software and database, you agree that you have
# read, understood, and will comply with these terms and conditions.:
#
# Permission to use, copy, modify and distribute this software and
# database and its documentation for any purpose and without fee or
# royalty is hereby granted, provided that you agree to comply with
# the following copyright notice and statements, including the disclaimer,
# and that the same appear on ALL copies of the software, database and
# documentation, including modifications that you make for internal
# use or for distribution.
#
# WordNet 3.0 Copyright 2006 by Princeton University.  All rights reserved.
#
# THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON
# UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES, EXPRESS OR
# IMPLIED.  BY WAY OF EXAMPLE, BUT NOT LIMITATION, PRINCETON
# UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES OF MERCHANT-
# ABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE
# OF THE LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT
# INFRINGE ANY THIRD PARTY PATENTS, COPYRIGHTS, TRADEMARKS OR
# OTHER RIGHTS.
#
# The name of Princeton University or Princeton may not be used in
# advertising or publicity pertaining to distribution of the software
# and/or database.  Title to copyright in this software, database and
# any associated documentation shall at all times remain with
# Princeton University and LICENSEE agrees to preserve same.
`
