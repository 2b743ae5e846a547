// Command etcd-client is the lean load client of Duro's etcd baseline (docs/performance.md, "The etcd baseline"):
// closed-loop clients, each running one transaction at a time through the etcd v3 Go client, in the shape the
// Java load generator gives Duro's read-write workloads. A transaction reads -reads distinct keys (a Get each,
// noting its mod revision, 0 when absent), then sends one Txn that compares every read key's mod revision with
// what was read and, if all match, puts fresh random values into the first -writes of them. A failed compare is
// etcd's certification failure and counts as an abort. With -writes 0 a transaction is one Txn of Gets.
//
// Keys are 4-byte big-endian integers in [0, -keys), chosen uniformly, as the Java load generator's key space for
// an unpartitioned system. It runs -warmup seconds, then measures -duration seconds, printing progress on
// stderr, and writes one JSON object on stdout: counts, the measured seconds, this process's CPU seconds over the
// measured window, and every measured commit's latency in microseconds (the Java side builds its histogram).
package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

type options struct {
	endpoints    []string
	clients      int
	keys         int
	reads        int
	writes       int
	valueBytes   int
	warmup       time.Duration
	duration     time.Duration
	serializable bool
	timeout      time.Duration
}

// result is what the client prints when it is done: every transaction committed in the window has its latency.
type result struct {
	Aborted         int64   `json:"aborted"`
	Errors          int64   `json:"errors"`
	Seconds         float64 `json:"seconds"`
	CPUSeconds      float64 `json:"cpuSeconds"`
	LatenciesMicros []int64 `json:"latenciesMicros"`
}

// counters are shared by the client goroutines, for the progress line; what the result counts is kept per client
// (tally) and merged at the end.
type counters struct {
	measuring atomic.Bool
	running   atomic.Bool
	committed atomic.Int64
	aborted   atomic.Int64
	errors    atomic.Int64
	lastError atomic.Value
}

func main() {
	opts, err := parse(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "etcd-client:", err)
		os.Exit(2)
	}
	res, err := run(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "etcd-client:", err)
		os.Exit(1)
	}
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		fmt.Fprintln(os.Stderr, "etcd-client: writing the result:", err)
		os.Exit(1)
	}
}

func parse(args []string) (options, error) {
	fs := flag.NewFlagSet("etcd-client", flag.ContinueOnError)
	endpoints := fs.String("endpoints", "", "comma-separated client URLs of the etcd members (required)")
	clients := fs.Int("clients", 64, "closed-loop clients")
	keys := fs.Int("keys", 100000, "distinct keys, 4-byte big-endian integers from 0")
	reads := fs.Int("reads", 4, "distinct keys each transaction reads")
	writes := fs.Int("writes", 4, "of the keys read, how many each transaction overwrites (0: read-only)")
	valueBytes := fs.Int("value-bytes", 4, "size of each value written")
	warmup := fs.Int("warmup", 10, "seconds before measuring")
	duration := fs.Int("duration", 20, "measured seconds")
	serializable := fs.Bool("serializable", false, "serializable Gets (served by one member) instead of linearizable")
	if err := fs.Parse(args); err != nil {
		return options{}, err
	}
	o := options{
		clients: *clients, keys: *keys, reads: *reads, writes: *writes, valueBytes: *valueBytes,
		warmup: time.Duration(*warmup) * time.Second, duration: time.Duration(*duration) * time.Second,
		serializable: *serializable, timeout: 30 * time.Second,
	}
	for _, e := range strings.Split(*endpoints, ",") {
		if e = strings.TrimSpace(e); e != "" {
			o.endpoints = append(o.endpoints, e)
		}
	}
	switch {
	case len(o.endpoints) == 0:
		return o, fmt.Errorf("-endpoints: at least one client URL is needed")
	case o.clients < 1:
		return o, fmt.Errorf("-clients must be >= 1, was %d", o.clients)
	case o.keys < 1:
		return o, fmt.Errorf("-keys must be >= 1, was %d", o.keys)
	case o.reads < 1 || o.reads > o.keys:
		return o, fmt.Errorf("-reads must be in [1, -keys], was %d", o.reads)
	case o.writes < 0 || o.writes > o.reads:
		return o, fmt.Errorf("-writes must be in [0, -reads], was %d", o.writes)
	case o.valueBytes < 0:
		return o, fmt.Errorf("-value-bytes must be >= 0, was %d", o.valueBytes)
	case *warmup < 0 || *duration < 1:
		return o, fmt.Errorf("-warmup must be >= 0 and -duration >= 1, were %d and %d", *warmup, *duration)
	}
	return o, nil
}

func run(o options) (*result, error) {
	cli, err := clientv3.New(clientv3.Config{
		Endpoints:   o.endpoints,
		DialTimeout: 10 * time.Second,
		Logger:      zap.NewNop(),
	})
	if err != nil {
		return nil, fmt.Errorf("connecting to %v: %w", o.endpoints, err)
	}
	defer cli.Close()

	var c counters
	c.running.Store(true)
	c.lastError.Store("")
	tallies := make([]tally, o.clients)
	var wg sync.WaitGroup
	for i := 0; i < o.clients; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			tallies[i] = clientLoop(cli, o, &c, rand.New(rand.NewSource(int64(0x5eed+i))))
		}(i)
	}
	progress("warm-up", o.warmup, &c)
	// The load generator reads the members' CPU at these marks.
	fmt.Fprint(os.Stderr, "duro-measure-begin\n")
	cpuBefore := cpuSeconds()
	started := time.Now()
	c.measuring.Store(true)
	progress("measure", o.duration, &c)
	c.measuring.Store(false)
	seconds := time.Since(started).Seconds()
	cpu := cpuSeconds() - cpuBefore
	fmt.Fprint(os.Stderr, "duro-measure-end\n")
	// LatenciesMicros is [] rather than null when nothing committed.
	res := &result{Seconds: seconds, CPUSeconds: cpu, LatenciesMicros: []int64{}}
	c.running.Store(false)
	wg.Wait()
	for _, t := range tallies {
		res.LatenciesMicros = append(res.LatenciesMicros, t.latencies...)
		res.Aborted += t.aborted
		res.Errors += t.errors
	}
	return res, nil
}

// tally is what one client saw end within the measured window.
type tally struct {
	latencies []int64 // of each commit, in microseconds
	aborted   int64
	errors    int64
}

// clientLoop runs transactions until the run ends and returns what ended within the measured window: a
// transaction counts there when it ended while measuring, so the counts and the latencies agree exactly.
func clientLoop(cli *clientv3.Client, o options, c *counters, rnd *rand.Rand) tally {
	var measured tally
	keys := make([]string, 0, o.reads)
	value := make([]byte, o.valueBytes)
	var readOpts []clientv3.OpOption
	if o.serializable {
		readOpts = append(readOpts, clientv3.WithSerializable())
	}
	for c.running.Load() {
		keys = pickKeys(keys[:0], o, rnd)
		begun := time.Now()
		committed, err := transact(cli, o, keys, value, readOpts, rnd)
		counting := c.measuring.Load()
		switch {
		case err != nil:
			c.errors.Add(1)
			c.lastError.Store(err.Error())
			if counting {
				measured.errors++
			}
		case !committed:
			c.aborted.Add(1)
			if counting {
				measured.aborted++
			}
		default:
			c.committed.Add(1)
			if counting {
				measured.latencies = append(measured.latencies, time.Since(begun).Microseconds())
			}
		}
	}
	return measured
}

// pickKeys appends o.reads distinct keys chosen uniformly.
func pickKeys(keys []string, o options, rnd *rand.Rand) []string {
	for len(keys) < o.reads {
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], uint32(rnd.Intn(o.keys)))
		k := string(b[:])
		fresh := true
		for _, seen := range keys {
			if seen == k {
				fresh = false
				break
			}
		}
		if fresh {
			keys = append(keys, k)
		}
	}
	return keys
}

// transact runs one transaction; false when etcd refused its compares.
func transact(cli *clientv3.Client, o options, keys []string, value []byte, readOpts []clientv3.OpOption,
	rnd *rand.Rand) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
	defer cancel()
	if o.writes == 0 {
		gets := make([]clientv3.Op, len(keys))
		for i, k := range keys {
			gets[i] = clientv3.OpGet(k, readOpts...)
		}
		_, err := cli.Txn(ctx).Then(gets...).Commit()
		return err == nil, err
	}
	compares := make([]clientv3.Cmp, len(keys))
	for i, k := range keys {
		resp, err := cli.Get(ctx, k, readOpts...)
		if err != nil {
			return false, err
		}
		var rev int64
		if len(resp.Kvs) > 0 {
			rev = resp.Kvs[0].ModRevision
		}
		compares[i] = clientv3.Compare(clientv3.ModRevision(k), "=", rev)
	}
	puts := make([]clientv3.Op, o.writes)
	for i := 0; i < o.writes; i++ {
		rnd.Read(value)
		puts[i] = clientv3.OpPut(keys[i], string(value))
	}
	resp, err := cli.Txn(ctx).If(compares...).Then(puts...).Commit()
	if err != nil {
		return false, err
	}
	return resp.Succeeded, nil
}

func progress(phase string, length time.Duration, c *counters) {
	end := time.Now().Add(length)
	last := c.committed.Load()
	for time.Now().Before(end) {
		time.Sleep(min(time.Second, time.Until(end)))
		now := c.committed.Load()
		fmt.Fprintf(os.Stderr, "\r%-8s %4.0fs left | %7d tx/s | aborts %d | errors %d %s   ",
			phase, max(0, time.Until(end).Seconds()), now-last, c.aborted.Load(), c.errors.Load(), c.lastError.Load())
		last = now
	}
	fmt.Fprintln(os.Stderr)
}

// cpuSeconds is this process's user + system CPU time so far.
func cpuSeconds() float64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()).Seconds()
}
