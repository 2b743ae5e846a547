(ns duro.jepsen.history-test
  (:require [clojure.data.json :as json]
            [clojure.java.io :as io]
            [clojure.string :as str]
            [clojure.test :refer [deftest is testing]]
            [duro.jepsen.history :as h]))

(def sample
  (h/index [{:type :invoke :f :txn :value [[:append 1 2] [:r 1 nil]] :process 0 :time 10}
            {:type :invoke :f :read :value nil :process 1 :time 11}
            {:type :info :f :start-partition :value [:n1 :n2] :process :nemesis :time 12}
            {:type :ok :f :txn :value [[:append 1 2] [:r 1 [2]]] :process 0 :time 13}
            {:type :ok :f :read :value {0 10, 1 20} :process 1 :time 14}
            {:type :invoke :f :add :value 5 :process 2 :time 15}]))

(deftest index-numbers-operations-in-order
  (is (= [0 1] (map :index (h/index [{:type :invoke} {:type :ok}])))))

(deftest ensure-indexed-keeps-existing-indices
  (is (= [7 9] (map :index (h/ensure-indexed [{:index 7} {:index 9}]))))
  (is (= [0 1] (map :index (h/ensure-indexed [{:index 7} {}])))))

(deftest pairs-match-completions-to-invocations
  (let [ps (h/pairs sample)]
    (is (= [[0 3] [1 4] [5 nil]] (map (fn [[i c]] [(:index i) (:index c)]) ps)))
    (is (= [:ok :ok :info] (map h/outcome ps)))
    (is (= [[0 3]] (map (fn [[i c]] [(:index i) (:index c)]) (h/ops-with-f #{:txn} sample))))))

(deftest client-ops-drop-the-nemesis
  (is (= [0 1 3 4 5] (map :index (h/client-ops sample)))))

(deftest pairs-rejects-a-completion-without-invocation
  (is (thrown? clojure.lang.ExceptionInfo (h/pairs [{:type :ok :process 0}]))))

(deftest edn-round-trips
  (let [f (java.io.File/createTempFile "history" ".edn")]
    (try
      (h/write-edn! f sample)
      (is (= (count sample) (count (str/split-lines (slurp f)))))
      (is (= sample (h/read-edn f)))
      (finally (.delete f)))))

(deftest jsonl-is-what-adya-reads
  (let [f (java.io.File/createTempFile "history" ".jsonl")]
    (try
      (h/write-jsonl! f sample)
      (let [lines (mapv json/read-str (str/split-lines (slurp f)))]
        (is (= (count sample) (count lines)))
        (is (= {"type" "ok" "f" "txn" "value" [["append" 1 2] ["r" 1 [2]]] "process" 0 "time" 13 "index" 3}
               (lines 3)))
        (is (= {"type" "info" "f" "start-partition" "value" ["n1" "n2"] "process" "nemesis" "time" 12 "index" 2}
               (lines 2)))
        (is (= {"0" 10 "1" 20} (get (lines 4) "value"))))
      (finally (.delete f)))))

(deftest read-edn-accepts-a-single-vector-and-comments
  (let [f (java.io.File/createTempFile "history" ".edn")]
    (try
      (spit f "; a comment\n[{:type :invoke :process 0} {:type :ok :process 0}]\n")
      (is (= [{:type :invoke :process 0} {:type :ok :process 0}] (h/read-edn (io/file f))))
      (finally (.delete f)))))
