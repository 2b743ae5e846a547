// Command porcupine-checker checks a register history for linearizability with porcupine's checker, as an
// independent second opinion on the harness's own (duro.jepsen.checker.register).
//
// It reads JSON lines from the file named by its argument (or stdin), one operation an object, as
// duro.jepsen.history/write-jsonl! writes them:
//
//	{"type":"invoke","f":"cas","value":[3,[1,2]],"process":4,"index":17}
//
// Only client operations (integer "process") with f read, write or cas are used; each value is [key, arg].
// A completion follows its invocation on the same process. The history's order is its clock: an operation
// is called at its invocation's line and returns at its completion's. A "fail" operation never happened
// and is dropped. An "info" operation (or one never completed) returns at infinity with an unknown output,
// so it may take effect any time after its call, or (placed after everything else) never; "info" reads
// are dropped, as they change nothing and tell nothing.
//
// It prints one JSON object a line: one per key, {"key":3,"result":"ok"|"illegal"|"unknown","ops":12}, in
// key order, then the verdict {"valid":true|false|"unknown","keys":n}. The exit status is 0 whatever the
// verdict, 2 on bad input.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"time"

	"github.com/anishathalye/porcupine"
)

// op is one line of the history.
type op struct {
	Type    string          `json:"type"`
	F       string          `json:"f"`
	Value   json.RawMessage `json:"value"`
	Process json.RawMessage `json:"process"`
}

// register is a register's value; Set is false for the initial, never-written state.
type register struct {
	Set   bool
	Value int64
}

// input is what an operation asked for.
type input struct {
	F   string
	Arg register // write: the value; cas: the expected value
	New register // cas: the new value
}

// output is what an operation returned. Unknown is for info operations.
type output struct {
	Unknown bool
	Value   register // read: the value read
}

// optional decodes a JSON integer or null.
func optional(raw json.RawMessage) (register, error) {
	var v *int64
	if err := json.Unmarshal(raw, &v); err != nil {
		return register{}, err
	}
	if v == nil {
		return register{}, nil
	}
	return register{Set: true, Value: *v}, nil
}

// split decodes [key, rest] with an integer key.
func split(raw json.RawMessage) (int64, json.RawMessage, error) {
	var parts []json.RawMessage
	if err := json.Unmarshal(raw, &parts); err != nil || len(parts) != 2 {
		return 0, nil, fmt.Errorf("value %s is not [key, argument]", raw)
	}
	var k int64
	if err := json.Unmarshal(parts[0], &k); err != nil {
		return 0, nil, fmt.Errorf("key %s is not an integer", parts[0])
	}
	return k, parts[1], nil
}

// parseInput decodes an invocation's value into its key and input.
func parseInput(f string, raw json.RawMessage) (int64, input, error) {
	k, arg, err := split(raw)
	if err != nil {
		return 0, input{}, err
	}
	in := input{F: f}
	switch f {
	case "read":
	case "write":
		in.Arg, err = optional(arg)
	case "cas":
		var pair []json.RawMessage
		if err = json.Unmarshal(arg, &pair); err != nil || len(pair) != 2 {
			return 0, input{}, fmt.Errorf("cas argument %s is not [old, new]", arg)
		}
		if in.Arg, err = optional(pair[0]); err == nil {
			in.New, err = optional(pair[1])
		}
	}
	return k, in, err
}

// model is porcupine's CAS register, one per key.
var model = porcupine.Model{
	Init: func() interface{} { return register{} },
	Step: func(state, in, out interface{}) (bool, interface{}) {
		st, i, o := state.(register), in.(input), out.(output)
		switch i.F {
		case "read":
			return o.Unknown || o.Value == st, st
		case "write":
			return true, i.Arg
		default: // cas: an ok cas matched; an unknown one took effect exactly when it could
			if i.Arg == st {
				return true, i.New
			}
			return o.Unknown, st
		}
	},
}

// pending is an invocation awaiting its completion.
type pending struct {
	key  int64
	in   input
	call int64
}

// load reads the history into per-key porcupine operations.
func load(r io.Reader) (map[int64][]porcupine.Operation, error) {
	ops := map[int64][]porcupine.Operation{}
	open := map[int64]pending{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	var line int64
	for sc.Scan() {
		line++
		if len(sc.Bytes()) == 0 {
			continue
		}
		var o op
		if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		var process int64
		if json.Unmarshal(o.Process, &process) != nil || (o.F != "read" && o.F != "write" && o.F != "cas") {
			continue
		}
		if o.Type == "invoke" {
			k, in, err := parseInput(o.F, o.Value)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", line, err)
			}
			open[process] = pending{key: k, in: in, call: line}
			continue
		}
		p, ok := open[process]
		if !ok {
			return nil, fmt.Errorf("line %d: completion without an invocation on process %d", line, process)
		}
		delete(open, process)
		switch o.Type {
		case "ok":
			out := output{}
			if p.in.F == "read" {
				_, v, err := split(o.Value)
				if err == nil {
					out.Value, err = optional(v)
				}
				if err != nil {
					return nil, fmt.Errorf("line %d: %v", line, err)
				}
			}
			ops[p.key] = append(ops[p.key], porcupine.Operation{ClientId: int(process), Input: p.in, Call: p.call, Output: out, Return: line})
		case "info":
			addUnknown(ops, process, p)
		}
	}
	for process, p := range open {
		addUnknown(ops, process, p)
	}
	return ops, sc.Err()
}

// addUnknown adds an operation whose outcome is unknown: it returns at infinity. Reads are left out, as
// they change nothing and tell nothing.
func addUnknown(ops map[int64][]porcupine.Operation, process int64, p pending) {
	if p.in.F == "read" {
		return
	}
	ops[p.key] = append(ops[p.key], porcupine.Operation{ClientId: int(process), Input: p.in, Call: p.call, Output: output{Unknown: true}, Return: math.MaxInt64})
}

func main() {
	timeout := flag.Duration("timeout", time.Minute, "search time per key before giving up with \"unknown\"")
	flag.Parse()
	in := io.Reader(os.Stdin)
	if flag.NArg() > 0 {
		f, err := os.Open(flag.Arg(0))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		defer f.Close()
		in = f
	}
	ops, err := load(in)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	keys := make([]int64, 0, len(ops))
	for k := range ops {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	out := json.NewEncoder(os.Stdout)
	var valid interface{} = true
	for _, k := range keys {
		result := "ok"
		switch porcupine.CheckOperationsTimeout(model, ops[k], *timeout) {
		case porcupine.Illegal:
			result, valid = "illegal", false
		case porcupine.Unknown:
			result = "unknown"
			if valid == true {
				valid = "unknown"
			}
		}
		out.Encode(map[string]interface{}{"key": k, "result": result, "ops": len(ops[k])})
	}
	out.Encode(map[string]interface{}{"valid": valid, "keys": len(keys)})
}
