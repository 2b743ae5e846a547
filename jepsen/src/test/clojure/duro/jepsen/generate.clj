(ns duro.jepsen.generate
  "Random histories of correct stores, for the checkers' randomized tests: a simulated store executes each
  operation atomically at some random moment between its invocation and its completion, so every history is
  strict serializable (list-append) or linearizable (register). Operations also fail before executing, or end
  :info with or without having executed (their process then retires for a fresh one), and nemesis operations
  are interleaved. Deterministic for a seed."
  (:import (java.util Random)))

(defn- simulate
  "Runs the simulation: `invoke` makes a new operation's invocation value, `execute` applies one to the store
  (an atom) and returns [completion-type completion-value]. Returns the indexed history."
  [{:keys [seed ops processes]} store invoke execute]
  (let [rnd (Random. seed)
        history (transient [])
        emit! (fn [op] (conj! history (assoc op :index (count history) :time (* 1000 (count history)))))]
    (loop [slots (vec (for [p (range processes)] {:process p :state :idle}))
           next-process processes
           invoked 0]
      (if (and (>= invoked ops) (every? #(= :idle (:state %)) slots))
        (persistent! history)
        (let [i (.nextInt rnd processes)
              {:keys [process state f value result] :as slot} (slots i)
              roll (.nextDouble rnd)
              idle [(assoc slots i {:process process :state :idle}) next-process invoked]
              retired [(assoc slots i {:process next-process :state :idle}) (inc next-process) invoked]]
          (when (< roll 0.01)
            (emit! {:type :info :f (if (.nextBoolean rnd) :start-partition :kill) :value nil :process :nemesis}))
          (let [[slots' next-process' invoked']
                (case state
                  :idle (if (< invoked ops)
                          (let [[f value] (invoke rnd)]
                            (emit! {:type :invoke :f f :value value :process process})
                            [(assoc slots i (assoc slot :state :pending :f f :value value)) next-process (inc invoked)])
                          [slots next-process invoked])
                  :pending (cond
                             (< roll 0.05) (do (emit! {:type :fail :f f :value value :process process}) idle)
                             (< roll 0.08) (do (emit! {:type :info :f f :value value :process process}) retired)
                             :else [(assoc slots i (assoc slot :state :executed :result (execute store f value)))
                                    next-process invoked])
                  :executed (if (< roll 0.05)
                              (do (emit! {:type :info :f f :value value :process process}) retired)
                              (let [[type v] result]
                                (emit! {:type type :f f :value v :process process})
                                idle)))]
            (recur slots' next-process' invoked')))))))

(defn list-append-history
  "A random strict-serializable list-append history. Options: :seed, :txns, :processes, :keys."
  [{:keys [txns keys] :as opts}]
  (let [counter (atom 0)
        invoke (fn [^Random rnd]
                 [:txn (vec (for [_ (range (inc (.nextInt rnd 4)))
                                  :let [k (.nextInt rnd keys)]]
                              (if (.nextBoolean rnd)
                                [:append k (swap! counter inc)]
                                [:r k nil])))])
        execute (fn [store _ mops]
                  [:ok (mapv (fn [[f k v]]
                               (if (= :append f)
                                 (do (swap! store update k (fnil conj []) v) [f k v])
                                 [f k (get @store k [])]))
                             mops)])]
    (simulate (assoc opts :ops txns) (atom {}) invoke execute)))

(defn register-history
  "A random linearizable CAS-register history over independent keys. Options: :seed, :ops, :processes,
  :keys, :values (values are drawn from 0 to :values - 1)."
  [{:keys [keys values] :as opts}]
  (let [invoke (fn [^Random rnd]
                 (let [k (.nextInt rnd keys)]
                   (case (.nextInt rnd 3)
                     0 [:read [k nil]]
                     1 [:write [k (.nextInt rnd values)]]
                     2 [:cas [k [(.nextInt rnd values) (.nextInt rnd values)]]])))
        execute (fn [store f [k arg :as value]]
                  (case f
                    :read [:ok [k (get @store k)]]
                    :write (do (swap! store assoc k arg) [:ok value])
                    :cas (let [[old new] arg]
                           (if (= old (get @store k))
                             (do (swap! store assoc k new) [:ok value])
                             [:fail value]))))]
    (simulate opts (atom {}) invoke execute)))
