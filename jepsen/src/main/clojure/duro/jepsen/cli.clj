(ns duro.jepsen.cli
  "Command line: one test, the short profile, or the matrix of every workload x every nemesis. Prints
  progress, and last `N passed, N failed`; exits non-zero when any test failed."
  (:require [clojure.java.io :as io]
            [clojure.string :as str]
            [clojure.tools.cli :as cli]
            [duro.jepsen.runner :as runner]
            [duro.jepsen.store :as store]
            [duro.jepsen.util :as u])
  (:import (java.time LocalDateTime)
           (java.time.format DateTimeFormatter))
  (:gen-class))

(def workload-names [:list-append :register :bank :set :predicate])
(def nemesis-names [:kill :pause :partition :loss :wipe :mix])

(defn- parse-nemesis [s]
  (if (or (str/blank? s) (= s "none"))
    []
    (mapv keyword (str/split s #","))))

(def harness-keys
  "Node settings the harness writes itself: --set may not override them."
  #{"cluster.name" "cluster.nodes" "cluster.partitions" "cluster.replication" "node.id" "data.dir"
    "raft.snapshot-every-entries"})

(defn parse-setting
  "key=value for --set: [key value], or throws naming what is wrong."
  [s]
  (let [i (str/index-of s "=")
        k (when (and i (pos? i)) (str/trim (subs s 0 i)))]
    (cond
      (str/blank? k) (throw (ex-info (str "expected key=value, got '" s "'") {}))
      (or (harness-keys k) (str/starts-with? k "node.") (str/starts-with? k "partition."))
      (throw (ex-info (str k " is written by the harness (use --nodes, --partitions or --snapshot-every)") {}))
      :else [k (str/trim (subs s (inc i)))])))

(def options
  [["-w" "--workload NAME" "list-append, register, bank, set or predicate"
    :default :list-append :parse-fn keyword :validate [(set workload-names) "unknown workload"]]
   ["-n" "--nemesis KINDS" "comma-separated: kill, pause, partition, loss, wipe, mix (or none)"
    :default [] :default-desc "none" :parse-fn parse-nemesis
    :validate [#(every? (set nemesis-names) %) "unknown nemesis"]]
   ["-t" "--time-limit SECONDS" "length of the fault phase (a 10 s quiet phase and final reads follow)"
    :default 60 :parse-fn parse-long]
   ["-c" "--concurrency N" "worker threads" :default 10 :parse-fn parse-long]
   ["-r" "--rate OPS" "total operations per second, at most" :default 100 :parse-fn parse-double]
   [nil "--nodes N" "Duro nodes (each in its own network namespace)" :default 3 :parse-fn parse-long]
   [nil "--partitions N" "Duro partitions (one Raft group each, replicated on every node)" :default 2
    :parse-fn parse-long]
   [nil "--seed N" "random seed" :default nil :default-desc "the clock" :parse-fn parse-long]
   [nil "--quiet SECONDS" "healed phase before the final reads" :default 10 :parse-fn parse-long]
   [nil "--snapshot-every N" "raft.snapshot-every-entries for the nodes (small, so wiped nodes catch up by snapshot)"
    :default 200 :parse-fn parse-long]
   [nil "--set KEY=VALUE" "a node setting written into every node's configuration (repeatable; the node validates it)"
    :id :settings :default {} :default-desc "none" :parse-fn parse-setting
    :assoc-fn (fn [m k [key value]] (update m k assoc key value))]
   [nil "--tls" "TLS on every link: a throwaway CA and certificates per run (./duro certs), clients with a certificate"]
   [nil "--profile NAME" "a fixed set of tests: short"]
   [nil "--matrix" "every workload x every nemesis"]
   [nil "--matrix-workloads NAMES" "the workloads (rows) --matrix runs, comma-separated"
    :default workload-names :default-desc "all"
    :parse-fn #(mapv keyword (str/split % #","))
    :validate [#(every? (set workload-names) %) "unknown workload"]]
   ["-h" "--help"]])

(defn profile-tests [name]
  (case name
    "short" [{:workload :list-append :nemesis [:partition :kill] :time-limit 40}
             {:workload :register :nemesis [:pause] :time-limit 30}
             {:workload :bank :nemesis [:kill] :time-limit 30}
             {:workload :set :nemesis [:partition] :time-limit 30}]
    (throw (ex-info (str "unknown profile " name) {}))))

(defn- matrix-tests [workloads]
  (for [w workloads, n nemesis-names] {:workload w :nemesis [n]}))

(defn- cell [x] (str/replace (str x) "|" "\\|"))

(defn write-table!
  "A markdown table of the results."
  [file results]
  (spit file
        (str "# Duro Jepsen results\n\n"
             "| workload | nemesis | ok | fail | info | faults | anomalies | verdict | run |\n"
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n"
             (str/join
              (for [r results]
                (str "| " (str/join " | " (map cell [(name (:workload r)) (:nemesis r) (:ok r "-") (:fail r "-")
                                                       (:info r "-") (:faults r "-")
                                                       (if (seq (:anomalies r)) (str/join ", " (map name (:anomalies r))) "none")
                                                       (str (pr-str (:valid? r))
                                                            (when (seq (:unknown r))
                                                              (str " (unknown: " (str/join ", " (map name (:unknown r))) ")")))
                                                       (.getName (io/file (:dir r)))]))
                     " |\n"))))))

(defn -main [& args]
  (let [{:keys [options errors summary]} (cli/parse-opts args options)]
    (when (:help options)
      (println "jepsen/run [options]\n")
      (println summary)
      (System/exit 0))
    (when errors
      (binding [*out* *err*] (run! println errors))
      (System/exit 2))
    (let [seed (or (:seed options) (System/currentTimeMillis))
          base (assoc options :seed seed :quiet-s (:quiet options))
          tests (cond (:profile options) (map #(merge base %) (profile-tests (:profile options)))
                      (:matrix options) (map #(merge base %) (matrix-tests (:matrix-workloads options)))
                      :else [base])
          results (vec (for [[i t] (map-indexed vector tests)]
                         (runner/run-test (assoc t :seed (+ seed i)))))
          passed (count (filter #(true? (:valid? %)) results))
          failed (- (count results) passed)]
      (when (> (count results) 1)
        (let [ts (.format (LocalDateTime/now) (DateTimeFormatter/ofPattern "yyyyMMdd'T'HHmmss"))
              f (io/file (store/home) "store" (str ts "-results.md"))]
          (write-table! f results)
          (u/log "results table:" (str f))
          (println (slurp f))))
      (doseq [r results]
        (u/log (format "%-12s %-22s %s  %s" (name (:workload r)) (:nemesis r) (pr-str (:valid? r)) (:dir r))))
      (println (str passed " passed, " failed " failed"))
      (flush)
      (shutdown-agents)
      (System/exit (if (zero? failed) 0 1)))))
