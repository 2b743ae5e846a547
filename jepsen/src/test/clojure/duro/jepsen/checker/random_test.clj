(ns duro.jepsen.checker.random-test
  "Randomized tests: histories of simulated correct stores must check valid with every checker (ours and
  the external ones), and mutated copies, broken in ways that are certainly visible, must be caught."
  (:require [clojure.test :refer [deftest is testing]]
            [duro.jepsen.checker.adya :as adya]
            [duro.jepsen.checker.linearizable :as linearizable]
            [duro.jepsen.checker.list-append :as la]
            [duro.jepsen.checker.porcupine :as porcupine]
            [duro.jepsen.checker.register :as register]
            [duro.jepsen.fixtures :refer [skip-unless]]
            [duro.jepsen.generate :as gen]
            [duro.jepsen.history :as h]))

(def seeds (range 12))

(defn- list-append [seed]
  (gen/list-append-history {:seed seed :txns 150 :processes 5 :keys 4}))

(defn- registers [seed]
  (gen/register-history {:seed seed :ops 150 :processes 5 :keys 3 :values 3}))

(defn- ok-reads
  "[position micro-op-position] of every :ok list-append read in the history satisfying (pred history pos mop)."
  [history pred]
  (for [[i op] (map-indexed vector history)
        :when (and (= :ok (:type op)) (= :txn (:f op)))
        [j mop] (map-indexed vector (:value op))
        :when (and (= :r (first mop)) (pred history i mop))]
    [i j]))

(defn- completed-before-invoke?
  "Whether the transaction that appended element e to key k completed :ok before the :ok op at position i
  was invoked, and is not that op's transaction."
  [history i [_ k v]]
  (when-let [e (peek (vec v))]
    (let [pairs (h/pairs history)
          [inv _] (first (filter (fn [[_ c]] (= c (history i))) pairs))
          [_ wc] (first (filter (fn [[inv' c]] (and (= :ok (:type c)) (not= c (history i))
                                                    (some #{[:append k e]} (:value inv'))))
                                pairs))]
      (and wc (< (:index wc) (:index inv))))))

(defn- stale-read
  "The history with one :ok read missing its last element, whose writer completed before the read's
  transaction was invoked: a real-time violation. nil if no read qualifies."
  [history]
  (when-let [[i j] (first (ok-reads history completed-before-invoke?))]
    (update-in history [i :value j 2] (comp pop vec))))

(defn- swapped-read
  "The history with the first two elements of one :ok read swapped, where another read of the key also has
  two or more elements: an incompatible order. nil if no read qualifies."
  [history]
  (let [long-reads (ok-reads history (fn [_ _ [_ _ v]] (>= (count v) 2)))
        key-of (fn [[i j]] (get-in history [i :value j 1]))]
    (when-let [[i j] (first (for [a long-reads, b long-reads
                                  :when (and (not= (first a) (first b)) (= (key-of a) (key-of b)))]
                              a))]
      (update-in history [i :value j 2] (fn [[x y & more]] (into [y x] more))))))

(deftest correct-list-append-histories-are-valid
  (doseq [seed seeds]
    (testing seed
      (let [result (la/check (list-append seed))]
        (is (:valid? result) (pr-str (:anomalies result)))))))

(deftest mutated-list-append-histories-are-caught
  (doseq [seed seeds
          :let [history (list-append seed)]]
    (testing seed
      (let [stale (stale-read history)
            swapped (swapped-read history)]
        (is (and stale swapped) "the generator should give every seed a read to break")
        (when stale
          (let [r (la/check stale)]
            (is (false? (:strict-serializable? r)))))
        (when swapped
          (is (some #{:incompatible-order} (:anomaly-types (la/check swapped)))))))))

(deftest adya-agrees-on-random-list-append-histories
  (skip-unless adya/available? "cargo"
    (doseq [seed seeds
            :let [history (list-append seed)]
            variant [history (stale-read history) (swapped-read history)]
            :when variant]
      (testing seed
        (let [r (adya/cross-check variant)]
          (is (:agree? r) (:explanation r)))))))

(defn- stale-register-read
  "The history with one :ok read returning nil after a write to its key completed: nothing ever writes nil
  back, so it is not linearizable. nil if no read qualifies."
  [history]
  (first (for [[i op] (map-indexed vector history)
               :when (and (= :ok (:type op)) (= :read (:f op)))
               :let [k (first (:value op))
                     inv (some #(when (and (= :invoke (:type %)) (= (:process %) (:process op)) (< (:index %) i)) %)
                               (rseq (subvec history 0 i)))]
               :when (some #(and (= :ok (:type %)) (= :write (:f %)) (= k (first (:value %))))
                           (subvec history 0 (:index inv)))]
           (assoc-in history [i :value 1] nil))))

(deftest correct-register-histories-are-linearizable
  (doseq [seed seeds]
    (testing seed
      (is (true? (:valid? (register/check (registers seed))))))))

(deftest mutated-register-histories-are-caught
  (doseq [seed seeds]
    (testing seed
      (let [bad (stale-register-read (registers seed))]
        (is bad)
        (is (false? (:valid? (register/check bad))))))))

(deftest porcupine-agrees-on-random-register-histories
  (skip-unless porcupine/available? "go"
    (doseq [seed seeds
            :let [history (registers seed)]
            variant [history (stale-register-read history)]
            :when variant]
      (testing seed
        (let [r (linearizable/check variant)]
          (is (:agree? r) (:explanation r))
          (is (= (= variant history) (:valid? r))))))))
