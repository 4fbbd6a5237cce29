package retrieve

import (
	"context"
	"hash/fnv"
	"math"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/llm"
)

var _ llm.Embedder = (*HashEmbedder)(nil)

// HashEmbedder is a deterministic llm.Embedder that needs no model (llm/openai
// and llm/ollama provide HTTP ones): it hashes word unigrams, word bigrams
// and character trigrams of each word (after identifier splitting, stemming
// and stopword removal) into a fixed number of signed buckets, weights them
// by log term frequency and L2-normalises.
//
// What it can do: match words shared by question and schema text, including
// plural/singular forms, partial words and misspellings that keep most
// trigrams ("custmer" ~ "customer"), and abbreviations once glosses have
// expanded them in the documents. What it cannot do: synonyms and paraphrase
// ("staff" vs "employees", "revenue" vs "tot_amt") — give the index a
// glossary, or use a real embedding model, for those.
type HashEmbedder struct {
	dim int
}

// NewHashEmbedder returns a HashEmbedder with dim dimensions (default 384
// when dim <= 0).
func NewHashEmbedder(dim int) *HashEmbedder {
	if dim <= 0 {
		dim = 384
	}
	return &HashEmbedder{dim: dim}
}

// Dimension implements llm.Embedder.
func (e *HashEmbedder) Dimension() int { return e.dim }

// Embed implements llm.Embedder. It never fails except on a cancelled context.
func (e *HashEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = e.vector(t)
	}
	return out, nil
}

func (e *HashEmbedder) vector(text string) []float32 {
	// Features are added to their buckets in the order the text first
	// has them, not in map order: float32 sums depend on the order, and
	// the same text must give the same vector, bit for bit.
	counts := map[string]float64{}
	var order []string
	add := func(f string, w float64) {
		if _, seen := counts[f]; !seen {
			order = append(order, f)
		}
		counts[f] += w
	}
	terms := gloss.Terms(text)
	for i, t := range terms {
		add("w:"+t, 1)
		if i > 0 {
			add("b:"+terms[i-1]+" "+t, 0.5)
		}
		if len(t) >= 4 {
			p := "^" + t + "$"
			for j := 0; j+3 <= len(p); j++ {
				add("c:"+p[j:j+3], 0.25)
			}
		}
	}
	v := make([]float32, e.dim)
	h := fnv.New64a()
	for _, f := range order {
		c := counts[f]
		h.Reset()
		h.Write([]byte(f))
		x := h.Sum64()
		idx := int(x % uint64(e.dim))
		w := float32(1 + math.Log(c))
		if c < 1 {
			w = float32(c)
		}
		if x>>63 == 1 {
			w = -w
		}
		v[idx] += w
	}
	normalize(v)
	return v
}

func normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	n := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= n
	}
}

func dot(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
