(ns duro.jepsen.checker.register
  "A Knossos-style linearizability checker for compare-and-set registers, written for Duro.

  The register workload's keys are independent, so each key's operations are checked on their own:
    {:f :read  :value [k nil]}      ok [k v]   (v nil if never written)
    {:f :write :value [k v]}
    {:f :cas   :value [k [old new]]} :fail when the register did not hold old (or the transaction aborted)
  A :fail operation never happened and is dropped. An :info operation (or one that never completed) may take
  effect at any point after its invocation, or never: it has no deadline. :info reads tell nothing and are
  dropped.

  The search is Wing & Gong's, with Lowe's just-in-time linearization and memoization: walk the entries
  (invocations and completions in history order) of the operations not yet linearized; at an invocation,
  try to linearize that operation now, if the model allows it and the resulting (set of linearized
  operations, register value) configuration has not been seen before; at a completion, the operation
  completing should have been linearized already, so backtrack. The history is linearizable once every
  operation with a completion is linearized."
  (:require [duro.jepsen.history :as h])
  (:import (java.util BitSet HashSet)))

(defn- key-ops
  "The register operations of the history grouped by key: {k [op ...]} where each op is {:f :value (the
  argument or, for ok reads, the result, without the key) :ok? bool :invoke invocation :complete completion
  :call position :ret position-or-nil}. :fail operations and :info reads are left out; :ret is nil for
  operations that may still take effect (:info or never completed)."
  [history]
  (->> (h/ops-with-f #{:read :write :cas} history)
       (keep (fn [[inv c :as pair]]
               (let [outcome (h/outcome pair)
                     [k arg] (:value inv)]
                 (when-not (or (= :fail outcome) (and (= :info outcome) (= :read (:f inv))))
                   [k {:f (:f inv)
                       :value (if (= :read (:f inv)) (second (:value c)) arg)
                       :ok? (= :ok outcome)
                       :invoke inv
                       :complete c
                       :call (:index inv)
                       :ret (when (= :ok outcome) (:index c))}]))))
       (reduce (fn [m [k op]] (update m k (fnil conj []) op)) {})))

(defn step
  "The CAS register model: the register's value after `op` from `value`, or ::illegal if `op` could not have
  happened then. An :info cas whose expected value does not match simply did not take effect."
  [value {:keys [f ok?] arg :value}]
  (case f
    :read (if (= arg value) value ::illegal)
    :write arg
    :cas (let [[old new] arg]
           (cond (= old value) new
                 ok? ::illegal
                 :else value))))

(defn- describe
  "An operation as text: \"read 3\", \"write 4\", \"cas 3->4\", with (maybe) for :info operations."
  [{:keys [f ok?] arg :value}]
  (str (case f
         :read (str "read " (pr-str arg))
         :write (str "write " (pr-str arg))
         :cas (str "cas " (pr-str (first arg)) "->" (pr-str (second arg))))
       (when-not ok? " (info: may or may not have happened)")))

(defn- entries
  "The search's doubly linked entry list over ops: arrays next/prev over entry ids 1..m (0 is the head),
  entry-op (the op of each entry), call? (whether an entry is an invocation), and each op's call and return
  entry ids (return -1 for ops without a deadline)."
  [ops]
  (let [evs (sort-by first (concat (map-indexed (fn [i op] [(:call op) i true]) ops)
                                   (keep-indexed (fn [i op] (when (:ret op) [(:ret op) i false])) ops)))
        m (count evs)
        nxt (int-array (+ m 2) -1)
        prv (int-array (+ m 2) -1)
        entry-op (int-array (+ m 1))
        call? (boolean-array (+ m 1))
        call-entry (int-array (count ops))
        ret-entry (int-array (count ops) -1)]
    (doseq [[e [_ i c?]] (map vector (range 1 (inc m)) evs)]
      (aset entry-op e (int i))
      (aset call? e (boolean c?))
      (if c? (aset call-entry i (int e)) (aset ret-entry i (int e))))
    (doseq [e (range 0 (inc m))]
      (aset nxt e (int (if (= e m) -1 (inc e))))
      (aset prv e (int (dec e))))
    {:next nxt :prev prv :entry-op entry-op :call? call? :call-entry call-entry :ret-entry ret-entry}))

(defn- unlink! [^ints nxt ^ints prv e]
  (when (>= e 0)
    (let [p (aget prv e), n (aget nxt e)]
      (aset nxt p n)
      (when (>= n 0) (aset prv n p)))))

(defn- relink! [^ints nxt ^ints prv e]
  (when (>= e 0)
    (let [p (aget prv e), n (aget nxt e)]
      (aset nxt p (int e))
      (when (>= n 0) (aset prv n (int e))))))

(defn- unwritten-read
  "An :ok read of a value that no write or cas (of any outcome but :fail) could have written, or nil: such a
  read rules linearizability out at once, however large the search would be."
  [ops]
  (let [written (set (keep (fn [{:keys [f] arg :value}] (case f :write arg :cas (second arg) nil)) ops))]
    (first (filter (fn [{:keys [f ok?] v :value}] (and (= :read f) ok? (some? v) (not (written v)))) ops))))

(defn- search
  "Searches for a linearization of one key's ops (see key-ops) from the initial value nil within `budget`
  search steps. Returns
  {:valid? true}, {:valid? :unknown :explanation ...} when the budget ran out, or {:valid? false :op ...
  :explanation ... :linearized [...]} naming the operation that could not be linearized after the longest
  linearizable prefix found."
  [ops budget]
  (let [{:keys [^ints next ^ints prev ^ints entry-op ^booleans call? ^ints call-entry ^ints ret-entry]} (entries ops)
        ops (vec ops)
        required (count (filter :ret ops))
        linearized (BitSet.)
        seen (HashSet.)]
    (loop [entry (aget next 0), value nil, stack '(), done 0, steps 0, best nil]
      (cond
        (= done required)
        {:valid? true}

        (>= steps budget)
        {:valid? :unknown :explanation (str "gave up after " budget " search steps")}

        (and (>= entry 0) (aget call? entry))
        (let [i (aget entry-op entry)
              op (ops i)
              value' (step value op)]
          (if (and (not= ::illegal value')
                   (let [bits (doto ^BitSet (.clone linearized) (.set i))]
                     (.add seen [bits value'])))
            (do (.set linearized i)
                (unlink! next prev (aget call-entry i))
                (unlink! next prev (aget ret-entry i))
                (recur (aget next 0) value' (conj stack [i value]) (if (:ret op) (inc done) done) (inc steps) best))
            (recur (aget next entry) value stack done (inc steps) best)))

        :else
        (let [blocked (when (>= entry 0) (aget entry-op entry))
              best (if (and blocked (or (nil? best) (>= (count stack) (count (:stack best)))))
                     {:stack stack :blocked blocked :value value}
                     best)]
          (if (empty? stack)
            (let [{:keys [stack blocked value]} best
                  op (ops blocked)]
              {:valid? false
               :op (:complete op)
               :linearized (mapv (fn [[i _]] (describe (ops i))) (reverse stack))
               :explanation (str "no linearization: after the longest linearizable prefix found, the register holds "
                                 (pr-str value) " and " (describe op) " (invoked at index " (:call op)
                                 ", completed at index " (:ret op) ") cannot take effect before it completes")})
            (let [[[i value'] & stack'] stack
                  op (ops i)]
              (.clear linearized i)
              (relink! next prev (aget ret-entry i))
              (relink! next prev (aget call-entry i))
              (recur (aget next (aget call-entry i)) value' stack' (if (:ret op) (dec done) done) (inc steps)
                     best))))))))

(defn check-key
  "Checks one key's ops (see key-ops): a read of a value nobody wrote fails at once, else the search decides
  (see search)."
  [ops budget]
  (if-let [op (unwritten-read ops)]
    {:valid? false
     :op (:complete op)
     :linearized []
     :explanation (str (describe op) " (completed at index " (:ret op) ") returned a value no operation wrote")}
    (search ops budget)))

(defn check
  "Checks that every key's operations are linearizable for a CAS register. Options: :budget, search steps
  per key before giving up with :unknown (default 1000000). Returns {:valid? true|false|:unknown,
  :keys-checked n, :failures {k {:op :explanation :linearized}}, :unknown {k explanation}}."
  ([history] (check history {}))
  ([history opts]
   (let [budget (:budget opts 1000000)
         results (into (sorted-map) (map (fn [[k ops]] [k (check-key ops budget)]))
                       (key-ops (h/ensure-indexed history)))
         failures (into (sorted-map) (filter #(false? (:valid? (val %)))) results)
         unknown (into (sorted-map) (comp (filter #(= :unknown (:valid? (val %))))
                                          (map (fn [[k r]] [k (:explanation r)])))
                       results)]
     {:valid? (cond (seq failures) false (seq unknown) :unknown :else true)
      :keys-checked (count results)
      :failures (update-vals failures #(dissoc % :valid?))
      :unknown unknown})))
