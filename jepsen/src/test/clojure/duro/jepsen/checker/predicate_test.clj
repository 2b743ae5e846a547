(ns duro.jepsen.checker.predicate-test
  (:require [clojure.test :refer [deftest is testing]]
            [duro.jepsen.checker.predicate :as predicate]
            [duro.jepsen.history :as h]))

(defn- history
  "Operations written as [process type f value], indexed in order."
  [& ops]
  (h/index (mapv (fn [[p type f value & [error]]]
                   (cond-> {:process p :type type :f f :value value} error (assoc :error error)))
                 ops)))

(defn- ins [g id] {:group g :id id})
(defn- seen [g id ids] {:group g :id id :seen ids})

(deftest two-inserts-that-each-missed-the-other-are-a-phantom
  ;; bound 2: both saw one key, both committed, the group ends with three
  (let [r (predicate/check {:bound 2}
                           (history [0 :invoke :insert (ins 0 1)] [0 :ok :insert (seen 0 1 [])]
                                    [1 :invoke :insert (ins 0 2)] [2 :invoke :insert (ins 0 3)]
                                    [1 :ok :insert (seen 0 2 [1])] [2 :ok :insert (seen 0 3 [1])]
                                    [0 :invoke :read nil] [0 :ok :read {0 [1 2 3]}]))]
    (is (false? (:valid? r)))
    (is (= [:G2 :bound-exceeded] (:anomaly-types r)))
    (is (= {:count 3 :bound 2} (select-keys (first (get-in r [:anomalies :bound-exceeded])) [:count :bound])))
    (is (= [:rw :rw] (mapv :label (:steps (first (get-in r [:anomalies :G2]))))))))

(deftest the-same-history-with-one-insert-aborted-is-valid
  ;; also: a delete, an :info insert a read returned, an insert refused at the bound
  (let [r (predicate/check {:bound 2}
                           (history [0 :invoke :insert (ins 0 1)] [0 :ok :insert (seen 0 1 [])]
                                    [1 :invoke :insert (ins 0 2)] [2 :invoke :insert (ins 0 3)]
                                    [1 :ok :insert (seen 0 2 [1])] [2 :fail :insert (ins 0 3) [:aborted "x"]]
                                    [0 :invoke :delete (ins 0 1)] [0 :ok :delete (ins 0 1)]
                                    [1 :invoke :insert (ins 0 4)] [1 :info :insert (ins 0 4) [:indefinite "t"]]
                                    [3 :invoke :read nil] [3 :ok :read {0 [2 4] 1 []}]
                                    [4 :invoke :insert (ins 0 5)] [4 :fail :insert (ins 0 5) [:full 2]]
                                    [4 :invoke :insert (ins 1 6)] [4 :ok :insert (seen 1 6 [])]
                                    [3 :invoke :read nil] [3 :ok :read {0 [2 4] 1 [6]}]))]
    (is (true? (:valid? r)) (pr-str (:anomalies r)))
    (is (= 2 (:max-group-size r)))
    (is (= {:fail 2 :info 1 :ok 3} (:insert-counts r)))))

(deftest a-read-only-scan-missing-a-key-an-insert-it-saw-depended-on-is-g-single
  ;; I2 saw 1; I3 saw 1 and 2; the read, concurrent with both, returned 1 and 3 but not 2
  (let [r (predicate/check {:bound 3}
                           (history [0 :invoke :insert (ins 0 1)] [0 :ok :insert (seen 0 1 [])]
                                    [3 :invoke :read nil]
                                    [1 :invoke :insert (ins 0 2)] [1 :ok :insert (seen 0 2 [1])]
                                    [2 :invoke :insert (ins 0 3)] [2 :ok :insert (seen 0 3 [1 2])]
                                    [3 :ok :read {0 [1 3]}]))]
    (is (false? (:valid? r)))
    (is (= [:G-single] (:anomaly-types r)))))

(deftest scans-against-real-time-and-garbage
  (testing "a scan that began after an insert was acknowledged and missed it"
    (is (= [:missing-key]
           (:anomaly-types (predicate/check {:bound 3}
                                            (history [0 :invoke :insert (ins 0 1)] [0 :ok :insert (seen 0 1 [])]
                                                     [1 :invoke :read nil] [1 :ok :read {0 []}]))))))
  (testing "a scan that returned a key whose delete was acknowledged before it began"
    (is (= [:deleted-read]
           (:anomaly-types (predicate/check {:bound 3}
                                            (history [0 :invoke :insert (ins 0 1)] [0 :ok :insert (seen 0 1 [])]
                                                     [0 :invoke :delete (ins 0 1)] [0 :ok :delete (ins 0 1)]
                                                     [1 :invoke :read nil] [1 :ok :read {0 [1]}]))))))
  (testing "keys nobody inserted, or whose insert failed"
    (is (= [:aborted-read :garbage-read]
           (:anomaly-types (predicate/check {:bound 3}
                                            (history [0 :invoke :insert (ins 0 1)] [0 :fail :insert (ins 0 1) [:full 3]]
                                                     [1 :invoke :read nil] [1 :ok :read {0 [1 7]}])))))))
