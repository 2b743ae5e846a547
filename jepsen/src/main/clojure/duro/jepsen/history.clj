(ns duro.jepsen.history
  "Histories: vectors of operation maps in Jepsen's form.

  Every operation is a map with
    :type    :invoke, :ok, :fail or :info
    :f       the operation's function, a keyword (:txn, :read, :write, :cas, :transfer, :add ...)
    :value   the operation's argument (invoke) or result (completion)
    :process the logical process (an integer; :nemesis for the nemesis)
    :time    nanoseconds since the test started
    :index   the operation's position in the history, from 0
  A completion (:ok/:fail/:info) follows its :invoke in the same process. A process whose operation ended
  :info is retired: its next operation comes from a fresh process number.

  Besides the operations' shape this namespace holds what every checker shares: pairing invocations with
  their completions, and reading and writing histories as EDN (Jepsen's history.edn, one operation a line)
  and as JSON lines (the form the external checkers, porcupine and adya, read)."
  (:require [clojure.data.json :as json]
            [clojure.edn :as edn]
            [clojure.java.io :as io])
  (:import (java.io PushbackReader)))

(defn index
  "Gives each operation its :index, in order."
  [history]
  (into [] (map-indexed (fn [i op] (assoc op :index i))) history))

(defn ensure-indexed
  "The history itself if every operation has an :index, else the history indexed by position."
  [history]
  (if (every? :index history) history (index history)))

(defn client-op?
  "True for operations of client processes (integer :process), false for the nemesis's."
  [op]
  (integer? (:process op)))

(defn client-ops
  "The history's client operations, in order: nemesis operations removed."
  [history]
  (filterv client-op? history))

(defn invoke? [op] (= :invoke (:type op)))
(defn ok? [op] (= :ok (:type op)))
(defn fail? [op] (= :fail (:type op)))
(defn info? [op] (= :info (:type op)))

(defn pairs
  "Pairs each client invocation with its completion: a vector of [invoke completion], in invocation order.
  The completion is nil when the process never completed the operation (the history ended first); callers
  treat that like an :info completion."
  [history]
  (loop [ops (seq history), open {}, out (transient [])]
    (if-let [op (first ops)]
      (cond
        (not (client-op? op)) (recur (next ops) open out)
        (invoke? op) (recur (next ops) (assoc open (:process op) (count out)) (conj! out [op nil]))
        :else (let [p (:process op)
                    i (get open p)]
                (if (nil? i)
                  (throw (ex-info (str "completion without an invocation on process " p) {:op op}))
                  (recur (next ops) (dissoc open p) (assoc! out i [(first (nth out i)) op])))))
      (persistent! out))))

(defn outcome
  "How a paired operation ended: :ok, :fail or :info (an operation that never completed counts as :info)."
  [[_ completion]]
  (if completion (:type completion) :info))

(defn ops-with-f
  "The pairs of `history` whose invocation's :f is in the set `fs`."
  [fs history]
  (filterv (fn [[inv _]] (contains? fs (:f inv))) (pairs history)))

;; ---------------------------------------------------------------------------------------------------------
;; EDN

(defn write-edn!
  "Writes the history to `file` as EDN, one operation a line (Jepsen's history.edn). Returns `file`."
  [file history]
  (with-open [w (io/writer file)]
    (binding [*out* w, *print-length* nil, *print-level* nil, *print-namespace-maps* false]
      (doseq [op history]
        (prn op))))
  file)

(defn read-edn
  "Reads a history written by write-edn!: EDN operation maps, one after another (or a single vector of them).
  Comments are allowed. Returns a vector."
  [file]
  (with-open [r (PushbackReader. (io/reader file))]
    (let [forms (->> (repeatedly #(edn/read {:eof ::eof} r))
                     (take-while #(not= ::eof %))
                     vec)]
      (if (and (= 1 (count forms)) (vector? (first forms)))
        (first forms)
        forms))))

;; ---------------------------------------------------------------------------------------------------------
;; JSON lines

(defn- json-value
  "Makes a history value JSON-friendly: keywords become their names (:append -> \"append\"), sets become sorted
  arrays, map keys become strings."
  [x]
  (cond
    (keyword? x) (name x)
    (map? x) (into {} (map (fn [[k v]] [(if (keyword? k) (name k) (str k)) (json-value v)])) x)
    (set? x) (mapv json-value (sort x))
    (sequential? x) (mapv json-value x)
    :else x))

(defn write-jsonl!
  "Writes the history to `file` as JSON lines, one operation an object: keywords as plain strings
  (\"type\":\"ok\", \"f\":\"txn\", \"process\":\"nemesis\"), micro-operations as arrays
  ([\"append\",3,7], [\"r\",3,[1,7]]). This is the format adya reads for list-append histories (elle-cli's
  JSON lines) and the one our porcupine driver reads for register histories. Returns `file`."
  [file history]
  (with-open [w (io/writer file)]
    (doseq [op history]
      (.write w ^String (json/write-str (json-value op)))
      (.write w "\n")))
  file)
