(ns duro.jepsen.workload.list-append
  "Elle-style list-append: transactions of 1-4 micro-ops, reads [:r k nil] and appends [:append k v], over a
  rolling window of integer keys (a key retires after appends-per-key appends and a fresh one takes its place),
  values unique per key. About half the transactions are steered to touch keys on different partitions, so
  many are global."
  (:require [duro.jepsen.client :as client]
            [duro.jepsen.util :as u]))

(defn workload
  [{:keys [^java.util.Random rng key-count appends-per-key] :or {key-count 8 appends-per-key 32}} view-partition]
  (let [state (atom {:active (vec (range key-count)) :next-key key-count :next-val {}})
        all-keys (atom (set (range key-count)))
        part (memoize (fn [k] (view-partition (client/la-key k))))
        pick-keys (fn [active n spread?]
                    (let [shuffled (u/shuffle-with rng active)]
                      (if-not spread?
                        (vec (take n shuffled))
                        ;; one key from each partition first, then any
                        (let [by-part (vals (group-by part shuffled))
                              firsts (map first by-part)]
                          (vec (take n (distinct (concat firsts shuffled))))))))
        gen (fn []
              (locking state
                (let [{:keys [active]} @state
                      n (inc (.nextInt rng 4))
                      ks (pick-keys active n (and (> n 1) (< (.nextDouble rng) 0.5)))
                      mops (vec (for [_ (range n)]
                                  (let [k (ks (.nextInt rng (count ks)))]
                                    (if (< (.nextDouble rng) 0.5)
                                      [:r k nil]
                                      (let [v (inc (get-in @state [:next-val k] 0))]
                                        (swap! state assoc-in [:next-val k] v)
                                        (when (>= v appends-per-key)
                                          ;; retire the key, bring in a fresh one
                                          (swap! state (fn [s]
                                                         (let [fresh (:next-key s)]
                                                           (swap! all-keys conj fresh)
                                                           (-> s
                                                               (update :active (fn [a] (conj (vec (remove #{k} a)) fresh)))
                                                               (update :next-key inc))))))
                                        [:append k v])))))]
                  {:f :txn :value mops})))]
    {:name :list-append
     :generator gen
     :client client/list-append
     ;; the final read: every key ever used, in read-only transactions of a few keys each
     :final-ops (fn [] (for [chunk (partition-all 4 (sort @all-keys))]
                         {:f :txn :value (mapv (fn [k] [:r k nil]) chunk)}))
     :check-opts {}}))
