(ns duro.jepsen.checker.predicate
  "The predicate workload's checker: phantoms over scanned prefixes.

    {:f :insert :value {:group g :id x}}   ok, :value gains :seen (the ids its scan of group g returned)
    {:f :delete :value {:group g :id x}}   a blind delete; each id is deleted at most once
    {:f :read   :value nil}                ok, {group [ids]}: one read-only scan of every group

  An insert commits only if its scan saw fewer than :bound keys, and ids are unique, so each key's versions
  are: absent, present (its insert), absent again (its delete, if any). The checker reports:

  * :bound-exceeded: a scan holding more than :bound keys of a group. Every insert saw fewer than the bound, so
    in any serial order no group ever holds more: two inserts that each missed the other (a phantom) did both
    commit.
  * :garbage-read (a key nobody tried to insert into that group), :aborted-read (its insert failed),
    :duplicate-keys (a scan returning a key twice).
  * :missing-key (a scan that began after a key's insert was acknowledged, ended before any delete of it was
    invoked, and did not return it), :deleted-read (a scan that began after the key's delete was acknowledged
    and returned it), :future-read (a scan that ended before the key's insert was invoked and returned it):
    real-time order, as every transaction here is expected to be strictly serializable.
  * :G-single, :G2 (cycles with one or more anti-dependencies) and :G1c (none): cycles in the dependency graph
    of the committed transactions, built from what the scans saw. A scan that returned key k read the insert's
    version (wr insert -> scan) and precedes its delete (rw scan -> delete); a scan that did not return k, where
    k is never deleted, precedes its insert (rw scan -> insert: the phantom edge); a delete follows its insert
    (ww). Where a scan missed a key that was also deleted, it may lie before the insert or after the delete, and
    no edge is drawn (the check stays sound, just less complete). :info inserts count once some scan returned
    their key; :info deletes once the final read (the last ok read) lacks a key that was present.

  Result: {:valid? :anomaly-types [...] :anomalies {type [example ...]} :scan-count :insert-counts
  :delete-counts :max-group-size}; examples are capped per type (:examples-max, default 10)."
  (:require [duro.jepsen.checker.graph :as graph]
            [duro.jepsen.history :as h]))

(defn- scans
  "Every group a committed transaction scanned: {:vertex :group :seen [ids] :invoked :completed :read?}, where
  :vertex is the transaction's pair index, :invoked / :completed its history indices, and :read? marks a
  read-only scan of every group."
  [pairs]
  (vec (for [[i [inv done]] (map-indexed vector pairs)
             :when (and done (h/ok? done))
             [g seen] (case (:f inv)
                        :insert [[(:group (:value inv)) (:seen (:value done))]]
                        :read (:value done)
                        [])
             :when (some? seen)]
         {:vertex i :group g :seen (vec seen) :invoked (:index inv) :completed (:index done)
          :read? (= :read (:f inv))})))

(defn- writes
  "{[group id] {:vertex :outcome :invoked :completed}} for the pairs with :f `f`."
  [pairs f]
  (into {} (for [[i [inv done :as pair]] (map-indexed vector pairs)
                 :when (= f (:f inv))
                 :let [{:keys [group id]} (:value inv)]]
             [[group id] {:vertex i :outcome (h/outcome pair) :invoked (:index inv)
                          :completed (some-> done :index)}])))

(defn- capped [anomalies limit]
  (into (sorted-map) (for [[k xs] anomalies] [k (vec (take limit xs))])))

(defn- scan-anomalies
  "The anomalies one scan shows on its own or against real time."
  [{:keys [bound]} inserts deletes {:keys [group seen invoked completed] :as scan}]
  (let [example (fn [type extra] [type (merge (select-keys scan [:vertex :group :seen]) extra)])
        present (set seen)]
    (concat
     (when (> (count present) bound) [(example :bound-exceeded {:count (count present) :bound bound})])
     (when (not= (count seen) (count present)) [(example :duplicate-keys {})])
     (for [id present
           :let [ins (get inserts [group id])
                 del (get deletes [group id])]
           anomaly [(cond (nil? ins) (example :garbage-read {:id id})
                          (= :fail (:outcome ins)) (example :aborted-read {:id id})
                          (> (:invoked ins) completed) (example :future-read {:id id}))
                    (when (and del (= :ok (:outcome del)) (< (:completed del) invoked))
                      (example :deleted-read {:id id}))]
           :when anomaly]
       anomaly))))

(defn- missing-keys
  "[:missing-key example] for each scan that began after a key's insert was acknowledged, ended before any delete
  of it was invoked, and did not return it. A sweep per group over the scans in invocation order keeps the keys
  acknowledged before the scan began and not deleted before it began (a few, whatever the history's length)."
  [inserts deletes scans]
  (for [[group group-scans] (group-by :group scans)
        :let [acked (->> (for [[[g id :as k] ins] inserts :when (and (= g group) (= :ok (:outcome ins)))]
                           {:id id :acked (:completed ins)
                            :deleting (or (some-> (get deletes k) :invoked) Long/MAX_VALUE)})
                         (sort-by :acked)
                         vec)
              live (java.util.HashSet.)
              next-acked (volatile! 0)]
        {:keys [invoked completed seen] :as scan} (sort-by :invoked group-scans)
        :let [_ (while (and (< @next-acked (count acked)) (< (:acked (nth acked @next-acked)) invoked))
                  (.add live (nth acked @next-acked))
                  (vswap! next-acked inc))
              _ (.removeIf live (reify java.util.function.Predicate (test [_ x] (< (:deleting x) invoked))))
              present (set seen)]
        key (vec live)
        :when (and (> (:deleting key) completed) (not (present (:id key))))]
    [:missing-key (assoc (select-keys scan [:vertex :group :seen]) :id (:id key))]))

(defn- happened
  "The [group id] of the inserts and of the deletes that took effect: ok ones, :info inserts some scan returned,
  and :info deletes of a key present at some scan and absent from the final read."
  [inserts deletes scans]
  (let [observed (set (for [{:keys [group seen]} scans, id seen] [group id]))
        final (when-let [v (:vertex (last (sort-by :completed (filter :read? scans))))]
                (set (for [{:keys [vertex group seen]} scans :when (= vertex v), id seen] [group id])))
        took? (fn [m pred] (set (for [[k w] m :when (or (= :ok (:outcome w)) (and (= :info (:outcome w)) (pred k)))] k)))]
    {:inserts (took? inserts observed)
     :deletes (took? deletes #(and final (observed %) (not (final %))))}))

(defn- edges
  "[from to label] of the dependency graph over committed transactions (vertices: pair indices)."
  [inserts deletes scans]
  (let [{ins-done :inserts del-done :deletes} (happened inserts deletes scans)
        ;; keys with no delete attempted, or with one that certainly failed: a scan missing them is before the insert
        undeleted (group-by first (for [k ins-done
                                        :let [del (get deletes k)]
                                        :when (or (nil? del) (= :fail (:outcome del)))]
                                    k))
        vertex-of (fn [m k] (:vertex (get m k)))]
    (concat
     (for [k del-done :when (ins-done k)] [(vertex-of inserts k) (vertex-of deletes k) :ww])
     (for [{:keys [vertex group seen]} scans
           edge (concat
                 (for [id seen :let [k [group id]] :when (ins-done k)]
                   [(vertex-of inserts k) vertex :wr])
                 (for [id seen :let [k [group id]] :when (del-done k)]
                   [vertex (vertex-of deletes k) :rw])
                 (let [present (set seen)]
                   (for [[_ id :as k] (get undeleted group) :when (not (present id))]
                     [vertex (vertex-of inserts k) :rw])))]
       edge))))

(defn- cycle-type [steps]
  (let [rw (count (filter #(= :rw (:label %)) steps))]
    (cond (zero? rw) :G1c (= 1 rw) :G-single :else :G2)))

(defn- cycles
  "One cycle per strongly connected component of the dependency graph: [type {:cycle [...] :steps [...]}]."
  [pairs inserts deletes scans]
  (let [n (count pairs)
        g (graph/build n (edges inserts deletes scans))
        allowed #{:ww :wr :rw}
        name-of (fn [v] (str "T" (or (:index (second (nth pairs v))) (:index (first (nth pairs v))))))]
    (for [component (graph/sccs n (range n) #(graph/successors g allowed nil %))
          :let [steps (graph/any-cycle g (set component) allowed)]]
      [(cycle-type steps)
       {:cycle (mapv #(let [[inv done] (nth pairs (:from %))] (or done inv)) steps)
        :steps (mapv (fn [{:keys [from to label]}] {:from (name-of from) :to (name-of to) :label label}) steps)}])))

(defn check
  "Checks a predicate history; opts :bound (required), :examples-max."
  [{:keys [bound examples-max] :or {examples-max 10} :as opts} history]
  (assert (pos-int? bound) ":bound is required")
  (let [pairs (h/pairs (h/ensure-indexed history))
        inserts (writes pairs :insert)
        deletes (writes pairs :delete)
        scans (scans pairs)
        found (concat (mapcat #(scan-anomalies opts inserts deletes %) scans)
                      (missing-keys inserts deletes scans)
                      (cycles pairs inserts deletes scans))
        anomalies (reduce (fn [m [type x]] (update m type (fnil conj []) x)) {} found)
        count-by (fn [m] (into (sorted-map) (frequencies (map :outcome (vals m)))))]
    {:valid? (empty? anomalies)
     :anomaly-types (vec (sort (keys anomalies)))
     :anomalies (capped anomalies examples-max)
     :anomaly-counts (into (sorted-map) (for [[k xs] anomalies] [k (count xs)]))
     :scan-count (count scans)
     :insert-counts (count-by inserts)
     :delete-counts (count-by deletes)
     :max-group-size (reduce max 0 (map #(count (set (:seen %))) scans))}))
