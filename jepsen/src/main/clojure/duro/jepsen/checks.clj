(ns duro.jepsen.checks
  "Composes the checkers per workload. The checkers themselves live in duro.jepsen.checker.* (each
  (check opts history) -> {:valid? true|false|:unknown ...}); they are resolved at run time, so a checker that
  is missing reports :unknown (\"checker not available\") instead of breaking the run.

  Next to them run a few cheap smoke checks of our own (:smoke/...) and a liveness check (:recovery): after
  every fault is healed, the cluster must serve again."
  (:require [clojure.string]))

(def checkers
  "Per workload, the checker namespaces whose `check` runs on the history."
  {:list-append ['duro.jepsen.checker.list-append 'duro.jepsen.checker.adya]
   ;; register: linearizable runs ours and Porcupine; ours alone too, so a missing Porcupine leaves a verdict
   :register ['duro.jepsen.checker.linearizable 'duro.jepsen.checker.register]
   :bank ['duro.jepsen.checker.bank]
   :set ['duro.jepsen.checker.set]
   :predicate ['duro.jepsen.checker.predicate]})

(defn- resolve-check [ns-sym]
  (try (requiring-resolve (symbol (str ns-sym) "check"))
       (catch Throwable _ nil)))

(defn- call-check
  "Calls a checker's check. The agreed contract is (check opts history); a check whose declared arguments
  start with `history` ((check history) or (check history opts)) is called that way instead."
  [v opts history]
  (let [arglists (:arglists (meta v))
        history-first? (some #(= 'history (first %)) arglists)
        arities (set (map count arglists))]
    (cond
      (not history-first?) (v opts history)
      (contains? arities 2) (v history opts)
      :else (v history))))

(defn run-checker
  [ns-sym opts history]
  (if-let [f (resolve-check ns-sym)]
    (try (let [r (call-check f opts history)]
           (if (map? r) r {:valid? :unknown :error (str "checker returned " (pr-str r))}))
         (catch Throwable t
           {:valid? :unknown :error (str "checker threw: " t)}))
    {:valid? :unknown :error "checker not available"}))

(def external-checkers
  "Checker namespaces that run a program built on first use (Porcupine with Go, adya with cargo)."
  ['duro.jepsen.checker.porcupine 'duro.jepsen.checker.adya])

(defn prepare-external!
  "Builds the external checkers' programs now, where the package registries can be reached: the harness runs
  inside a network namespace with no route out, where a first build would fail. A checker whose tool chain is
  missing, or whose build fails, is reported and left :unknown at check time; nothing here stops a run."
  []
  (binding [*out* *err*]
    (doseq [ns-sym external-checkers
            :let [checker (name ns-sym)
                  resolve-fn #(requiring-resolve (symbol checker %))]]
      (try
        (if ((resolve-fn "available?"))
          (println "jepsen/run:" checker "ready at" (str ((resolve-fn "binary"))))
          (println "jepsen/run:" checker "unavailable (tool chain not on the PATH); its verdicts will be :unknown"))
        (catch Throwable t
          (println "jepsen/run: could not build" checker "-" (.getMessage t)))))))

;; ---- smoke checks ----

(defn- client-ops [history] (remove #(= :nemesis (:process %)) history))

(defn- oks [history f] (filter #(and (= :ok (:type %)) (= f (:f %))) (client-ops history)))

(defn smoke-bank
  "Every ok read sees all accounts, the total, and no negative balance."
  [{:keys [accounts total]} history]
  (let [bad (for [op (oks history :read)
                  :let [m (:value op)]
                  :when (or (not= (set accounts) (set (keys m)))
                            (some nil? (vals m))
                            (not= total (reduce + 0 (keep identity (vals m))))
                            (some #(and % (neg? %)) (vals m)))]
              (select-keys op [:index :process :value]))]
    {:valid? (empty? bad) :reads (count (oks history :read)) :bad-reads (vec (take 10 bad))}))

(defn smoke-set
  "Every acknowledged add is in the final read; nothing never attempted is."
  [_ history]
  (let [final (last (oks history :read))
        added (set (map :value (oks history :add)))
        attempted (set (map :value (filter #(and (= :invoke (:type %)) (= :add (:f %))) history)))]
    (if-not final
      {:valid? :unknown :error "no final read completed"}
      (let [present (set (:value final))
            lost (sort (remove present added))
            unexpected (sort (remove attempted present))]
        {:valid? (and (empty? lost) (empty? unexpected))
         :acknowledged (count added) :present (count present)
         :lost (vec (take 20 lost)) :lost-count (count lost)
         :unexpected (vec (take 20 unexpected))}))))

(defn- prefix? [a b] (= (seq a) (seq (take (count a) b))))

(defn smoke-list-append
  "For every key, the lists read by ok transactions are prefixes of one another (one order of appends), hold
  no duplicates, contain only attempted appends, and the longest contains every acknowledged append."
  [_ history]
  (let [txns (oks history :txn)
        reads (for [op txns, [f k v] (:value op) :when (= f :r)] [k v])
        by-key (group-by first reads)
        acked (reduce (fn [m [k v]] (update m k (fnil conj #{}) v)) {}
                      (for [op txns, [f k v] (:value op) :when (= f :append)] [k v]))
        attempted (reduce (fn [m [k v]] (update m k (fnil conj #{}) v)) {}
                          (for [op history :when (and (= :invoke (:type op)) (= :txn (:f op)))
                                [f k v] (:value op) :when (= f :append)] [k v]))
        errors (for [[k kvs] by-key
                     :let [lists (distinct (map second kvs))
                           longest (apply max-key count lists)]
                     err (concat
                          (for [l lists :when (not (prefix? l longest))]
                            {:key k :type :incompatible-order :read l :longest longest})
                          (for [l lists :when (not= (count l) (count (distinct l)))]
                            {:key k :type :duplicate :read l})
                          (for [x longest :when (not (contains? (get attempted k) x))]
                            {:key k :type :phantom :value x})
                          (for [x (get acked k) :when (not (some #{x} longest))]
                            {:key k :type :lost-append :value x}))]
                 err)]
    {:valid? (empty? errors) :error-count (count errors) :errors (vec (take 20 errors))}))

(defn- final-key
  "Which final operation an attempt belongs to: :final-id, or for histories without it, the keys it reads."
  [op]
  (or (:final-id op)
      (let [v (:value op)]
        (cond (and (vector? v) (seq v) (every? vector? v)) [(:f op) (mapv second v)]
              (vector? v) [(:f op) (first v)]
              :else (:f op)))))

(defn recovery
  "After the faults were healed the cluster served again: some client operation completed :ok in the final
  quiet phase, every final operation (retried a few times) completed :ok at its last attempt, and, where the
  run probed them (:cut-probe, {node cut-or-error}), every node gave a linearizable cut of its own."
  [{:keys [quiet-from-ns cut-probe]} history]
  (let [late-ok (count (filter #(and (= :ok (:type %)) (not= :nemesis (:process %))
                                     (>= (:time %) quiet-from-ns))
                               history))
        finals (->> history
                    (filter #(and (:final? %) (not= :invoke (:type %))))
                    (group-by final-key))
        failed (vec (for [[id attempts] finals :when (not= :ok (:type (last attempts)))] id))
        no-cut (vec (for [[node cut] cut-probe :when (not (sequential? cut))] node))]
    {:valid? (and (pos? late-ok) (empty? failed) (empty? no-cut))
     :nodes-without-cut no-cut
     :ok-after-heal late-ok
     :final-ops (count finals)
     :final-attempts (reduce + 0 (map count (vals finals)))
     :final-failed failed}))

(def smoke
  {:list-append smoke-list-append
   :bank smoke-bank
   :set smoke-set})

(defn merge-valid
  "false if any is false; else :unknown if all are :unknown; else true."
  [vs]
  (cond (some false? vs) false
        (every? #(= :unknown %) vs) :unknown
        :else true))

(defn check
  "Runs every checker of the workload; returns {:valid? ... :checkers {name result}}."
  [workload opts history]
  (let [results (merge
                 (into {} (for [sym (get checkers workload)]
                            [(keyword (last (clojure.string/split (name sym) #"\."))) (run-checker sym opts history)]))
                 (when-let [f (smoke workload)]
                   {(keyword "smoke" (name workload)) (try (f opts history)
                                                           (catch Throwable t {:valid? :unknown :error (str t)}))})
                 {:recovery (recovery opts history)})]
    ;; :recovery is about liveness; with every consistency check :unknown the verdict is :unknown
    {:valid? (let [consistency (map :valid? (vals (dissoc results :recovery)))
                   v (merge-valid (map :valid? (vals results)))]
               (if (and (true? v) (every? #(= :unknown %) consistency)) :unknown v))
     :unknown (vec (sort (for [[k r] results :when (= :unknown (:valid? r))] k)))
     :checkers results}))
