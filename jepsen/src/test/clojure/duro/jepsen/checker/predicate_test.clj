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
  (testing "a scan concurrent with the key's delete need not return it"
    (is (true? (:valid? (predicate/check {:bound 3}
                                         (history [0 :invoke :insert (ins 0 1)] [0 :ok :insert (seen 0 1 [])]
                                                  [1 :invoke :read nil] [0 :invoke :delete (ins 0 1)]
                                                  [1 :ok :read {0 []}] [0 :ok :delete (ins 0 1)]))))))
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

(defn- simulate
  "A history of `steps` steps from 5 processes against an in-memory store of 2 groups: each step invokes a process's
  next operation or completes its pending one. An insert scans at its invocation and commits at its completion,
  if it saw fewer than `bound` keys and, when `certify?`, no key of its group was inserted or deleted meanwhile
  (the scanned range's certification); without it, a phantom commits. Reads take effect at their invocation."
  [seed steps bound certify?]
  (let [rng (java.util.Random. seed)
        groups 2]
    (loop [step 0, store {0 #{} 1 #{}}, versions {0 0 1 0}, pending {}, deletable [], next-id 0, out []]
      (if (= step steps)
        (let [final {:process 9 :f :read :value nil}]
          (h/index (conj out (assoc final :type :invoke) (assoc final :type :ok :value (into (sorted-map) (update-vals store (comp vec sort)))))))
        (let [p (.nextInt rng 5)]
          (if-let [{:keys [op seen version result]} (pending p)]
            (let [{:keys [group id]} (:value op)
                  done (assoc op :type :ok)
                  pending (dissoc pending p)]
              (case (:f op)
                :read (recur (inc step) store versions pending deletable next-id (conj out (assoc done :value result)))
                :delete (recur (inc step) (update store group disj id) (update versions group inc) pending deletable
                               next-id (conj out done))
                :insert (cond
                          (>= (count seen) bound)
                          (recur (inc step) store versions pending deletable next-id
                                 (conj out (assoc op :type :fail :error [:full (count seen)])))
                          (and certify? (not= version (versions group)))
                          (recur (inc step) store versions pending deletable next-id
                                 (conj out (assoc op :type :fail :error [:aborted "phantom"])))
                          :else
                          (recur (inc step) (update store group conj id) (update versions group inc) pending
                                 (conj deletable [group id]) next-id
                                 (conj out (assoc done :value (assoc (:value op) :seen (vec (sort seen)))))))))
            (let [g (.nextInt rng groups)
                  x (.nextDouble rng)
                  [op deletable next-id]
                  (cond
                    (< x 0.2) [{:f :read :value nil} deletable next-id]
                    (and (< x 0.45) (seq deletable))
                    (let [i (.nextInt rng (count deletable))
                          [dg id] (nth deletable i)]
                      [{:f :delete :value {:group dg :id id}}
                       (into (subvec deletable 0 i) (subvec deletable (inc i))) next-id])
                    :else [{:f :insert :value {:group g :id next-id}} deletable (inc next-id)])
                  op (assoc op :process p)]
              (recur (inc step) store versions
                     (assoc pending p {:op op
                                       :result (into (sorted-map) (update-vals store (comp vec sort)))
                                       :seen (store (:group (:value op)) #{})
                                       :version (versions (:group (:value op)) 0)})
                     deletable next-id (conj out (assoc op :type :invoke))))))))))

(deftest a-store-that-certifies-scanned-ranges-passes-and-one-that-ignores-them-is-caught
  (doseq [seed (range 5)]
    (let [good (predicate/check {:bound 3} (simulate seed 600 3 true))
          bad (predicate/check {:bound 3} (simulate seed 600 3 false))]
      (is (true? (:valid? good)) (str "seed " seed ": " (pr-str (:anomaly-types good))))
      (is (false? (:valid? bad)) (str "seed " seed))
      (is (some #{:G2 :G-single :bound-exceeded} (:anomaly-types bad)) (str "seed " seed ": " (pr-str (:anomaly-types bad)))))))
