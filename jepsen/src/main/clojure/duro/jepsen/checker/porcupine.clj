(ns duro.jepsen.checker.porcupine
  "Register linearizability checked by porcupine, as a second opinion on duro.jepsen.checker.register.

  The Go program in jepsen/porcupine (main.go) reads a register history as JSON lines and checks each key with
  porcupine's CAS-register model; see its comment for how :fail and :info operations are modelled. It is
  built on first use into target/porcupine/ and rebuilt when its sources change."
  (:require [clojure.data.json :as json]
            [clojure.java.io :as io]
            [clojure.string :as str]
            [duro.jepsen.checker.external :as x]
            [duro.jepsen.history :as h]))

(defn available?
  "Whether the Go tool chain needed to build the checker is installed."
  []
  (x/on-path? "go"))

(defn binary
  "The checker's executable, built (go build) if missing or older than its sources."
  ^java.io.File []
  (let [src (io/file (x/module-dir) "porcupine")
        bin (x/target-file "porcupine" "porcupine-checker")]
    (when-not (x/newer? bin (map #(io/file src %) ["main.go" "go.mod" "go.sum"]))
      (x/exec! ["go" "build" "-o" (.getAbsolutePath bin) "."] :dir src))
    bin))

(defn- verdict
  "A porcupine result string as a verdict: true, false or :unknown."
  [result]
  (case result "ok" true "illegal" false :unknown))

(defn check
  "Checks a register history with porcupine. Options: :timeout-s, the search time per key (default 60).
  Returns {:valid? true|false|:unknown, :keys-checked n, :per-key {k true|false|:unknown}}."
  ([history] (check history {}))
  ([history opts]
   (let [file (x/target-file "porcupine" (str "history-" (System/nanoTime) ".jsonl"))]
     (try
       (h/write-jsonl! file (h/ensure-indexed history))
       (let [{:keys [out]} (x/exec! [(.getAbsolutePath (binary)) (str "-timeout=" (:timeout-s opts 60) "s")
                                    (.getAbsolutePath file)])
             lines (mapv #(json/read-str % :key-fn keyword) (remove str/blank? (str/split-lines out)))
             per-key (into (sorted-map) (map (juxt :key (comp verdict :result))) (butlast lines))
             {:keys [valid keys]} (peek lines)]
         {:valid? (if (= "unknown" valid) :unknown valid)
          :keys-checked keys
          :per-key per-key})
       (finally (.delete file))))))
