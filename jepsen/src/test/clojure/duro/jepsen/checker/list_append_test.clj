(ns duro.jepsen.checker.list-append-test
  (:require [clojure.test :refer [deftest is testing]]
            [duro.jepsen.checker.list-append :as la]
            [duro.jepsen.fixtures :refer [load-fixture]]
            [duro.jepsen.generate :as gen]
            [duro.jepsen.history :as h]))

(def expected
  "Each list-append fixture's anomaly types, and whether it is serializable."
  {"la-g0.edn" [[:G0] false]
   "la-g1a.edn" [[:G1a] false]
   "la-g1b.edn" [[:G-single :G1b] false]
   "la-g1c.edn" [[:G1c] false]
   "la-g-single.edn" [[:G-single] false]
   "la-g2-item.edn" [[:G2-item] false]
   "la-realtime.edn" [[:G-single-realtime] true]
   "la-incompatible-order.edn" [[:incompatible-order] false]
   "la-valid.edn" [[] true]
   "la-valid-tricky.edn" [[] true]})

(deftest fixtures-find-exactly-their-anomalies
  (doseq [[file [types serializable?]] expected]
    (testing file
      (let [history (load-fixture file)
            strict (la/check history)
            serial (la/check history {:consistency-model :serializable})]
        (is (= types (:anomaly-types strict)))
        (is (= serializable? (:serializable? strict)))
        (is (= (empty? types) (:strict-serializable? strict) (:valid? strict)))
        (is (= serializable? (:valid? serial)))))))

(deftest cycles-are-explained
  (let [{:keys [anomalies]} (la/check (load-fixture "la-g-single.edn"))
        [{:keys [cycle steps]}] (:G-single anomalies)]
    (is (= 2 (count cycle)))
    (is (= #{:wr :rw} (set (map :label steps))))
    (is (every? (comp string? :explanation) steps))
    (is (= [2 3] (sort (map :index cycle))))))

(deftest realtime-cycle-names-the-real-time-edge
  (let [[{:keys [steps]}] (get-in (la/check (load-fixture "la-realtime.edn")) [:anomalies :G-single-realtime])]
    (is (= #{:rw :realtime} (set (map :label steps))))))

(defn- txn
  "An invoke/ok pair of a transaction on process p."
  [p mops result]
  [{:type :invoke :f :txn :process p :value mops} {:type :ok :f :txn :process p :value result}])

(def direct-cases
  "Small histories with one anomaly each that needs no graph: [type history]."
  {:garbage-read (h/index (concat (txn 0 [[:append 1 1]] [[:append 1 1]])
                                  (txn 1 [[:r 1 nil]] [[:r 1 [1 42]]])))
   :duplicate-elements (h/index (concat (txn 0 [[:append 1 1]] [[:append 1 1]])
                                        (txn 1 [[:r 1 nil]] [[:r 1 [1 1]]])))
   :internal (h/index (concat (txn 0 [[:append 1 1]] [[:append 1 1]])
                              (txn 1 [[:append 1 2] [:r 1 nil]] [[:append 1 2] [:r 1 [1]]])))
   :future-read (h/index (concat (txn 0 [[:append 1 1]] [[:append 1 1]])
                                 (txn 1 [[:r 1 nil] [:append 1 2]] [[:r 1 [1 2]] [:append 1 2]])))
   :duplicate-appends (h/index (concat (txn 0 [[:append 1 1]] [[:append 1 1]])
                                       (txn 1 [[:append 1 1]] [[:append 1 1]])
                                       (txn 2 [[:r 1 nil]] [[:r 1 [1]]])))})

(deftest direct-anomalies
  (doseq [[type history] direct-cases]
    (testing type
      (let [result (la/check history)]
        (is (= [type] (:anomaly-types result)))
        (is (false? (:serializable? result)))))))

(deftest process-order-violation
  (testing "a process that misses its own earlier append is not strict serializable (a -process cycle)"
    (let [history [{:type :invoke :f :txn :process 0 :value [[:append 1 1]] :index 0}
                   {:type :invoke :f :txn :process 1 :value [[:r 1 nil]] :index 1}
                   {:type :ok :f :txn :process 0 :value [[:append 1 1]] :index 2}
                   {:type :invoke :f :txn :process 0 :value [[:r 1 nil]] :index 3}
                   {:type :ok :f :txn :process 1 :value [[:r 1 [1]]] :index 4}
                   {:type :ok :f :txn :process 0 :value [[:r 1 []]] :index 5}]
          result (la/check history)]
      (is (:serializable? result))
      (is (not (:strict-serializable? result)))
      (is (= [:G-single-process] (:anomaly-types result))))))

(deftest large-histories-check-in-seconds
  (let [history (gen/list-append-history {:seed 7 :txns 12000 :processes 10 :keys 40})
        start (System/nanoTime)
        result (la/check history)
        seconds (/ (- (System/nanoTime) start) 1e9)]
    (println (format "list-append: %d transactions checked in %.2f s" (:txn-count result) seconds))
    (is (>= (:txn-count result) 12000))
    (is (:valid? result) (pr-str (:anomaly-types result)))
    (is (< seconds 60.0))))
