package lattice

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ikawaha/kagome-dict/dict"
	"github.com/ikawaha/kagome/v2/tokenizer/lattice/mem"
)

const (
	maximumCost              = 1<<31 - 1
	maximumUnknownWordLength = 1024
	searchModeKanjiLength    = 2
	searchModeKanjiPenalty   = 3000
	searchModeOtherLength    = 7
	searchModeOtherPenalty   = 1700
)

// TokenizeMode represents how to tokenize sentence.
type TokenizeMode int

const (
	// Normal Mode
	Normal TokenizeMode = iota + 1
	// Search Mode
	Search
	// Extended Mode
	Extended
)

var latticePool = mem.NewPool[Lattice](func() *Lattice {
	return new(Lattice)
})

// Lattice represents a grid of morph nodes.
type Lattice struct {
	Input  string
	Output []*Node
	list   [][]*Node
	dic    *dict.Dict
	udic   *dict.UserDict
	// nodes hold the nodes of the lattice, in blocks of nodeBlock that
	// are kept (with the lattice, in its pool) for the next input; used
	// counts those given out.
	nodes [][]Node
	used  int
	// dup, when set, is the system dictionary's Index.Dup as a table by
	// word id (see Dups).
	dup []uint8
}

// Dups returns a dictionary's Index.Dup (how many more words share a
// word's surface) as a table by word id, for NewWith: a lookup in it costs
// less than one in the map, at every known word of the input. It returns
// nil when a count does not fit a byte (none does in IPA or UniDic).
func Dups(d *dict.Dict) []uint8 {
	t := make([]uint8, len(d.Morphs))
	for id, n := range d.Index.Dup {
		if id < 0 || int(id) >= len(t) || n < 0 || n > 255 {
			return nil
		}
		t[id] = uint8(n)
	}
	return t
}

// NewWith returns a new lattice that looks the system dictionary's
// words up with dup (made by Dups for d; nil: with the map).
func NewWith(d *dict.Dict, u *dict.UserDict, dup []uint8) *Lattice {
	la := New(d, u)
	la.dup = dup
	return la
}

// nodeBlock is the number of nodes allocated at once.
const nodeBlock = 1024

// newNode returns a zero node of the lattice.
func (la *Lattice) newNode() *Node {
	b, i := la.used/nodeBlock, la.used%nodeBlock
	if b == len(la.nodes) {
		la.nodes = append(la.nodes, make([]Node, nodeBlock))
	}
	la.used++
	return &la.nodes[b][i]
}

// New returns a new lattice.
func New(d *dict.Dict, u *dict.UserDict) *Lattice {
	la := latticePool.Get()
	la.dic = d
	la.udic = u
	return la
}

// Free releases a memory of a lattice.
func (la *Lattice) Free() {
	la.Input = ""
	for i := range la.Output {
		la.Output[i] = nil
	}
	la.Output = la.Output[:0]
	for i := range la.list {
		clear(la.list[i])
		la.list[i] = la.list[i][:0]
	}
	la.list = la.list[:0]
	for b := 0; b*nodeBlock < la.used; b++ {
		clear(la.nodes[b][:min(nodeBlock, la.used-b*nodeBlock)])
	}
	la.used = 0
	la.udic = nil
	latticePool.Put(la)
}

func (la *Lattice) addNode(pos, id, position, start int, class NodeClass, surface string) {
	var m dict.Morph
	switch class {
	case DUMMY:
		// use default cost
	case KNOWN:
		m = la.dic.Morphs[id]
	case UNKNOWN:
		m = la.dic.UnkDict.Morphs[id]
	case USER:
		// use default cost
	}
	n := la.newNode()
	n.ID = id
	n.Position = position
	n.Start = start
	n.Class = class
	n.Left, n.Right, n.Weight = int32(m.LeftID), int32(m.RightID), int32(m.Weight)
	n.Surface = surface
	l := utf8.RuneCountInString(surface)
	n.penalty = int32(searchPenalty(surface, l)) //nolint:gosec // G115: at most maximumUnknownWordLength runes
	p := pos + l
	la.list[p] = append(la.list[p], n)
}

// Build builds a lattice from the inputs.
//
//nolint:gocyclo,funlen
func (la *Lattice) Build(inp string) {
	rc := utf8.RuneCountInString(inp)
	la.Input = inp
	if cap(la.list) < rc+2 {
		la.list = make([][]*Node, 0, rc+2)
	}
	la.list = la.list[0 : rc+2]

	la.addNode(0, BosEosID, 0, 0, DUMMY, inp[0:0])
	la.addNode(rc+1, BosEosID, len(inp), rc, DUMMY, inp[rc:rc])

	runePos := -1
	for pos, ch := range inp {
		runePos++
		anyMatches := false

		// (1) USER DIC
		if la.udic != nil {
			la.udic.Index.CommonPrefixSearchCallback(inp[pos:], func(id, l int) {
				la.addNode(runePos, id, pos, runePos, USER, inp[pos:pos+l])
				if !anyMatches {
					anyMatches = true
				}
			})
		}
		if anyMatches {
			continue
		}
		// (2) KNOWN DIC
		if la.dup != nil {
			anyMatches = la.addKnown(inp, pos, runePos)
		} else {
			la.dic.Index.CommonPrefixSearchCallback(inp[pos:], func(id, l int) {
				la.addNode(runePos, id, pos, runePos, KNOWN, inp[pos:pos+l])
				if !anyMatches {
					anyMatches = true
				}
			})
		}
		// (3) UNKNOWN DIC
		class := la.dic.CharacterCategory(ch)
		if !anyMatches || la.dic.InvokeList[int(class)] { //nolint:nestif
			var endPos int
			if ch != utf8.RuneError {
				endPos = pos + utf8.RuneLen(ch)
			} else {
				endPos = pos + 1
			}
			unkWordLen := 1
			if la.dic.GroupList[int(class)] {
				for i, w, size := endPos, 0, len(inp); i < size; i += w { //nolint:wastedassign
					var c rune
					c, w = utf8.DecodeRuneInString(inp[i:])
					if la.dic.CharacterCategory(c) != class {
						break
					}
					endPos += w
					unkWordLen++
					if unkWordLen >= maximumUnknownWordLength {
						break
					}
				}
			}

			prev := pos
			if c, size := utf8.DecodeLastRuneInString(inp[pos:endPos]); c != utf8.RuneError {
				prev = endPos - size
			}
			id := la.dic.UnkDict.Index[int32(class)]
			dup := la.dic.UnkDict.IndexDup[int32(class)]
			for x := range int(dup) + 1 {
				if pos < prev {
					// add the string with one character truncated at the end.
					la.addNode(runePos, int(id)+x, pos, runePos, UNKNOWN, inp[pos:prev])
				}
				la.addNode(runePos, int(id)+x, pos, runePos, UNKNOWN, inp[pos:endPos])
			}
		}
	}
}

// addKnown adds the nodes of the system dictionary's words that start at
// byte pos (rune runePos) of inp, as Build does through
// dict.IndexTable.CommonPrefixSearchCallback (the same walk of the double
// array, in the same order), and reports whether there was one.
func (la *Lattice) addKnown(inp string, pos, runePos int) bool {
	const terminator = 0 // trie's
	da := la.dic.Index.Da
	any := false
	var p, q int
	for i := pos; i < len(inp); i++ {
		c := inp[i]
		if c == terminator {
			break
		}
		p = q
		q = int(da[p].Base) + int(c)
		if q >= len(da) || int(da[q].Check) != p {
			break
		}
		ahead := int(da[q].Base) + terminator
		if ahead < len(da) && int(da[ahead].Check) == q && int(da[ahead].Base) <= 0 {
			id := int(-da[ahead].Base)
			for k := id; k <= id+int(la.dup[id]); k++ {
				la.addNode(runePos, k, pos, runePos, KNOWN, inp[pos:i+1])
			}
			any = true
		}
	}
	return any
}

// String returns a debug string of a lattice.
func (la *Lattice) String() string {
	str := ""
	for i, nodes := range la.list {
		str += fmt.Sprintf("[%v] :\n", i)
		for _, node := range nodes {
			str += fmt.Sprintf("%v\n", node)
		}
		str += "\n"
	}
	return str
}

func kanjiOnly(s string) bool {
	for _, r := range s {
		if !unicode.In(r, unicode.Ideographic) {
			return false
		}
	}
	return s != ""
}

// searchPenalty is the cost a node of l runes adds to a path through it in
// the Search and Extended modes: long words cost more, so that they are
// split.
func searchPenalty(s string, l int) int {
	if l > searchModeKanjiLength && kanjiOnly(s) {
		return (l - searchModeKanjiLength) * searchModeKanjiPenalty
	}
	if l > searchModeOtherLength {
		return (l - searchModeOtherLength) * searchModeOtherPenalty
	}
	return 0
}

// Forward runs forward algorithm of the Viterbi.
func (la *Lattice) Forward(m TokenizeMode) {
	conn := &la.dic.Connection
	for i, size := 1, len(la.list); i < size; i++ {
		for _, target := range la.list[i] {
			prevList := la.list[target.Start]
			if len(prevList) == 0 {
				target.Cost = maximumCost
				continue
			}
			var best *Node
			var bestCost int32
			for j, n := range prevList {
				var c int16
				if n.Class != USER && target.Class != USER {
					c = conn.At(int(n.Right), int(target.Left))
				}
				totalCost := int64(c) + int64(target.Weight) + int64(n.Cost)
				if m != Normal {
					totalCost += int64(n.penalty)
				}
				if totalCost > maximumCost {
					totalCost = maximumCost
				}
				if j == 0 || int32(totalCost) < bestCost { //nolint:gosec // G115: integer overflow conversion int64 -> int32
					bestCost = int32(totalCost) //nolint:gosec // G115: integer overflow conversion int64 -> int32
					best = n
				}
			}
			target.Cost, target.prev = bestCost, best
		}
	}
}

// Backward runs backward algorithm of the Viterbi.
func (la *Lattice) Backward(m TokenizeMode) {
	size := len(la.list)
	if size == 0 {
		return
	}
	for p := la.list[size-1][0]; p != nil; p = p.prev {
		if m != Extended || p.Class != UNKNOWN {
			la.Output = append(la.Output, p)
			continue
		}
		runeLen := utf8.RuneCountInString(p.Surface)
		stack := make([]*Node, 0, runeLen)
		i := 0
		for k, r := range p.Surface {
			stack = append(stack, &Node{
				ID:       p.ID,
				Start:    p.Start + i,
				Class:    DUMMY,
				Surface:  string(r),
				Position: p.Position + k,
			})
			i++
		}
		for j, end := 0, len(stack); j < end; j++ {
			la.Output = append(la.Output, stack[runeLen-1-j])
		}
	}
}

func posFeature(d *dict.Dict, u *dict.UserDict, t *Node) string {
	var ret []string
	switch t.Class {
	case DUMMY:
		// undefined
	case KNOWN:
		for _, id := range d.POSTable.POSs[t.ID] {
			if v := d.POSTable.NameList[id]; v != "*" {
				ret = append(ret, d.POSTable.NameList[id])
			}
		}
	case UNKNOWN:
		start := 0
		if v, ok := d.UnkDict.ContentsMeta[dict.POSStartIndex]; ok {
			start = int(v)
		}
		end := 1
		if v, ok := d.UnkDict.ContentsMeta[dict.POSHierarchy]; ok {
			end = start + int(v)
		}
		feature := d.UnkDict.Contents[t.ID]
		if start >= end || end > len(feature) {
			return "---"
		}
		for i := start; i < end; i++ {
			if feature[i] != "*" {
				ret = append(ret, feature[i])
			}
		}
	case USER:
		ret = append(ret, u.Contents[t.ID].Pos)
	}
	if len(ret) == 0 {
		return "---"
	}
	return strings.Join(ret, "/")
}

// Dot outputs a lattice in the graphviz dot format.
//
//nolint:gocyclo,funlen
func (la *Lattice) Dot(w io.Writer) {
	bests := make(map[*Node]struct{})
	for _, n := range la.Output {
		bests[n] = struct{}{}
	}
	type edge struct {
		from *Node
		to   *Node
	}
	edges := make([]edge, 0, 1024)
	for i, size := 1, len(la.list); i < size; i++ {
		currents := la.list[i]
		for _, to := range currents {
			if to.Class == UNKNOWN {
				if _, ok := bests[to]; !ok {
					continue
				}
			}
			prevs := la.list[to.Start]
			if len(prevs) == 0 {
				continue
			}
			for _, from := range prevs {
				if from.Class == UNKNOWN {
					if _, ok := bests[from]; !ok {
						continue
					}
				}
				edges = append(edges, edge{from, to})
			}
		}
	}
	fmt.Fprintln(w, "graph lattice {")
	fmt.Fprintln(w, "dpi=48;")
	fmt.Fprintln(w, "graph [style=filled, splines=true, overlap=false, fontsize=30, rankdir=LR]")
	fmt.Fprintln(w, "edge [fontname=Helvetica, fontcolor=red, color=\"#606060\"]")
	fmt.Fprintln(w, "node [shape=box, style=filled, fillcolor=\"#e8e8f0\", fontname=Helvetica]")
	for i, list := range la.list {
		for _, n := range list {
			if n.Class == UNKNOWN {
				if _, ok := bests[n]; !ok {
					continue
				}
			}
			surf := n.Surface
			if n.ID == BosEosID {
				if i == 0 {
					surf = "BOS"
				} else {
					surf = "EOS"
				}
			}
			pos := posFeature(la.dic, la.udic, n)
			if _, ok := bests[n]; ok {
				fmt.Fprintf(w, "\t\"%p\" [label=\"%s\\n%s\\n%d\",shape=ellipse, peripheries=2];\n", n, surf, pos, n.Weight)
			} else if n.Class != UNKNOWN {
				fmt.Fprintf(w, "\t\"%p\" [label=\"%s\\n%s\\n%d\"];\n", n, surf, pos, n.Weight)
			}
		}
	}
	for _, e := range edges {
		var c int16
		if e.from.Class != USER && e.to.Class != USER {
			c = la.dic.Connection.At(int(e.from.Right), int(e.to.Left))
		}
		_, l := bests[e.from]
		_, r := bests[e.to]
		if l && r {
			fmt.Fprintf(w, "\t\"%p\" -- \"%p\" [label=\"%d\", style=bold, color=blue, fontcolor=blue];\n",
				e.from, e.to, c)
		} else {
			fmt.Fprintf(w, "\t\"%p\" -- \"%p\" [label=\"%d\"];\n",
				e.from, e.to, c)
		}
	}

	fmt.Fprintln(w, "}")
}
