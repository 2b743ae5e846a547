(ns duro.jepsen.runtime-test
  "Unit tests of the harness runtime's pure parts: partition shapes, value encodings, verdict merging, the
  smoke and recovery checks, the checker calling convention, history writers and the timeline picture. The
  parts that need root and a cluster are exercised by jepsen/run itself."
  (:require [clojure.java.io :as io]
            [clojure.string :as str]
            [clojure.test :refer [deftest is testing]]
            [clojure.tools.cli :as cli-parse]
            [duro.jepsen.checks :as checks]
            [duro.jepsen.cli :as cli]
            [duro.jepsen.client :as client]
            [duro.jepsen.db :as db]
            [duro.jepsen.net :as net]
            [duro.jepsen.store :as store]
            [duro.jepsen.timeline :as timeline])
  (:import (java.util Random)))

(def nodes ["n1" "n2" "n3"])

(deftest partition-shapes
  (testing "halves: a minority cut from a majority"
    (let [g (net/halves nodes (Random. 1))]
      (is (= 1 (count g)))
      (is (= 2 (count (val (first g)))))))
  (testing "isolate"
    (is (= {"n2" #{"n1" "n3"}} (net/isolate nodes "n2"))))
  (testing "bridge: the two ends do not hear each other, the middle hears both"
    (let [g (net/bridge nodes (Random. 7))
          [[a bs]] (seq g)]
      (is (= 1 (count g)))
      (is (= 1 (count bs)))
      (is (not (contains? bs a)))))
  (testing "majorities ring on 5 nodes: each node hears exactly a majority (itself and two neighbours)"
    (let [five ["n1" "n2" "n3" "n4" "n5"]
          g (net/majorities-ring five (Random. 3))]
      (is (= 5 (count g)))
      (is (every? #(= 2 (count %)) (vals g)))))
  (testing "addresses"
    (is (= "10.77.0.13" (net/address {:subnet "10.77.0"} "n3")))))

(deftest value-encodings
  (is (= [] (client/parse-list nil)))
  (is (= [] (client/parse-list "")))
  (is (= [1 2 30] (client/parse-list (client/encode-list [1 2 30]))))
  (is (= 5 (client/parse-int "5")))
  (is (nil? (client/parse-int nil))))

(deftest node-settings
  (testing "--set is repeatable and reaches every node's configuration"
    (let [{:keys [options errors]} (cli-parse/parse-opts ["--set" "engine.outcomes-retained=50"
                                                          "--set" "certification.window-transactions = 200"]
                                                         cli/options)
          test {:hosts {:subnet "10.77.0"} :nodes ["n1" "n2"] :partitions 2 :snapshot-every 200
                :dir (io/file "target" "settings-test") :settings (:settings options)}]
      (is (nil? errors))
      (is (= {"engine.outcomes-retained" "50" "certification.window-transactions" "200"} (:settings options)))
      (doseq [node ["n1" "n2"]]
        (let [lines (set (str/split-lines (db/config test node)))]
          (is (contains? lines "engine.outcomes-retained=50"))
          (is (contains? lines "certification.window-transactions=200"))
          (is (contains? lines (str "node.id=" node)))
          (is (contains? lines "cluster.preferred-leaders=n1,n2") "leaders placed on the first node by default")))))
  (testing "--set cluster.preferred-leaders replaces the harness's list, and an empty one leaves it to elections"
    (doseq [[given expected] [["n2" "cluster.preferred-leaders=n2"] ["" "cluster.preferred-leaders="]]]
      (let [settings (:settings (:options (cli-parse/parse-opts ["--set" (str "cluster.preferred-leaders=" given)]
                                                                cli/options)))
            test {:hosts {:subnet "10.77.0"} :nodes ["n1" "n2"] :partitions 2 :snapshot-every 200
                  :dir (io/file "target" "settings-test") :settings settings}
            lines (filter #(str/starts-with? % "cluster.preferred-leaders") (str/split-lines (db/config test "n1")))]
        (is (= [expected] lines)))))
  (testing "none given: nothing added"
    (is (= {} (:settings (:options (cli-parse/parse-opts [] cli/options))))))
  (testing "malformed or harness-owned settings are refused by name"
    (is (re-find #"key=value" (first (:errors (cli-parse/parse-opts ["--set" "=5"] cli/options)))))
    (is (re-find #"key=value" (first (:errors (cli-parse/parse-opts ["--set" "novalue"] cli/options)))))
    (is (re-find #"cluster.partitions is written by the harness"
                 (first (:errors (cli-parse/parse-opts ["--set" "cluster.partitions=3"] cli/options)))))))

(deftest verdict-merging
  (is (false? (checks/merge-valid [true :unknown false])))
  (is (true? (checks/merge-valid [true :unknown])))
  (is (= :unknown (checks/merge-valid [:unknown :unknown]))))

(defn- op [i m] (assoc m :index i :time (* i 1000000)))

(deftest smoke-checks
  (testing "bank: a read with the wrong total"
    (let [h [(op 0 {:type :invoke :f :read :process 0})
             (op 1 {:type :ok :f :read :process 0 :value {0 10 1 80}})]]
      (is (false? (:valid? (checks/smoke-bank {:accounts [0 1] :total 100} h))))
      (is (true? (:valid? (checks/smoke-bank {:accounts [0 1] :total 90} h))))))
  (testing "set: a lost acknowledged add"
    (let [h [(op 0 {:type :invoke :f :add :value 0 :process 0})
             (op 1 {:type :ok :f :add :value 0 :process 0})
             (op 2 {:type :invoke :f :add :value 1 :process 0})
             (op 3 {:type :ok :f :add :value 1 :process 0})
             (op 4 {:type :invoke :f :read :process 1})
             (op 5 {:type :ok :f :read :value [0] :process 1})]]
      (is (= [1] (:lost (checks/smoke-set {} h))))))
  (testing "list-append: incompatible orders and a lost append"
    (let [h [(op 0 {:type :invoke :f :txn :process 0 :value [[:append 1 1]]})
             (op 1 {:type :ok :f :txn :process 0 :value [[:append 1 1]]})
             (op 2 {:type :invoke :f :txn :process 0 :value [[:append 1 2]]})
             (op 3 {:type :ok :f :txn :process 0 :value [[:append 1 2]]})
             (op 4 {:type :invoke :f :txn :process 1 :value [[:r 1 nil]]})
             (op 5 {:type :ok :f :txn :process 1 :value [[:r 1 [2]]]})
             (op 6 {:type :invoke :f :txn :process 1 :value [[:r 1 nil]]})
             (op 7 {:type :ok :f :txn :process 1 :value [[:r 1 [1]]]})]
          r (checks/smoke-list-append {} h)]
      (is (false? (:valid? r)))
      (is (some #(= :incompatible-order (:type %)) (:errors r))))))

(deftest recovery-check
  (let [h [(op 0 {:type :invoke :f :read :process 0})
           (op 5 {:type :ok :f :read :process 0})
           (op 6 {:type :invoke :f :read :process 1 :final? true :final-id 0})
           (op 7 {:type :fail :f :read :process 1 :final? true :final-id 0})
           (op 8 {:type :invoke :f :read :process 1 :final? true :final-id 0})
           (op 9 {:type :ok :f :read :process 1 :final? true :final-id 0})]]
    (is (true? (:valid? (checks/recovery {:quiet-from-ns 4000000} h))) "a final read that succeeds on retry")
    (is (false? (:valid? (checks/recovery {:quiet-from-ns 4000000} (vec (take 4 h)))))
        "a final read that never succeeded")
    (is (true? (:valid? (checks/recovery {:quiet-from-ns 4000000 :cut-probe {"n1" [3 4] "n2" [3 4]}} h)))
        "every node gives a linearizable cut")
    (let [r (checks/recovery {:quiet-from-ns 4000000
                              :cut-probe {"n1" [3 4] "n2" "NOT_READY: no linearizable cut within 2000 ms"}} h)]
      (is (false? (:valid? r)) "a node that cannot give a linearizable cut after the heal")
      (is (= ["n2"] (:nodes-without-cut r))))))

(defn check-opts-first [opts history] [:opts-first opts (count history)])
(defn check-history-first
  ([history] [:history-only (count history)])
  ([history opts] [:history-first opts (count history)]))
(defn check-history-only [history] [:history-only (count history)])

(deftest checker-calling-convention
  (let [call @#'checks/call-check]
    (is (= [:opts-first {:a 1} 2] (call #'check-opts-first {:a 1} [1 2])))
    (is (= [:history-first {:a 1} 2] (call #'check-history-first {:a 1} [1 2])))
    (is (= [:history-only 2] (call #'check-history-only {:a 1} [1 2]))))
  (testing "a missing checker is :unknown, not an error"
    (is (= :unknown (:valid? (checks/run-checker 'duro.jepsen.checker.no-such-checker {} []))))))

(deftest writers-and-timeline
  (let [dir (doto (io/file "target" "runtime-test") .mkdirs)
        h (vec (concat
                (for [i (range 200)]
                  (op i {:type (if (even? i) :invoke (rand-nth [:ok :ok :fail :info])) :f :txn
                         :process (quot i 2) :value [[:r 1 nil]]}))
                [(op 200 {:type :info :f :start-kill :process :nemesis :value {:targets ["n1"]}})]))]
    (#'store/fallback-edn! (io/file dir "h.edn") h)
    (#'store/fallback-jsonl! (io/file dir "h.jsonl") h)
    (is (= 201 (count (str/split-lines (slurp (io/file dir "h.edn"))))))
    (is (str/includes? (slurp (io/file dir "h.jsonl")) "\"type\":\"invoke\""))
    (System/setProperty "java.awt.headless" "true")
    (timeline/render! (io/file dir "timeline.png")
                      {:title "test" :history h
                       :windows [{:kind :kill :start-ns 20000000 :stop-ns 80000000 :targets ["n1"]}]
                       :result {:valid? true}})
    (is (< 1000 (.length (io/file dir "timeline.png"))))))
