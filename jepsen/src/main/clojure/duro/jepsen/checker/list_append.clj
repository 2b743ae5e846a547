(ns duro.jepsen.checker.list-append
  "An Elle-style checker for list-append histories, written for Duro.

  Transactions are {:f :txn :value [[:append k v] [:r k nil] ...]}; an :ok completion carries the reads'
  lists. Because every appended (key, value) is unique and every read returns a whole list, each key's
  version order is the longest list read of it, and the history yields Adya's dependencies directly:
    ww  T1 -> T2  T2 appended the element right after T1's
    wr  T1 -> T2  T2 read a list ending in T1's element
    rw  T1 -> T2  T1 read a list that T2's element was next to extend
  plus, for the strict models, process order (successive transactions of a process) and real-time order
  (T1 completed before T2 was invoked; kept as a transitive reduction through a frontier of recent
  completions, so it stays linear in the history).

  Anomalies found without the graph: :incompatible-order (two reads of a key that are not prefixes of one
  another), :duplicate-elements (a read holding an element twice), :duplicate-appends (a (key, value)
  appended twice), :garbage-read (an element nobody appended), :G1a (aborted read: an element appended by a
  :fail transaction), :G1b (intermediate read: a list ending in an element its writer followed with another
  append to the same key), :internal (a read contradicting the transaction's own earlier reads and appends),
  :future-read (a read holding an element the transaction appends only later).

  Cycles of the graph are found per strongly connected component and classified like Elle's: :G0 (ww only),
  :G1c (ww and wr), :G-single (exactly one rw), :G2-item (two or more rw), and the -process / -realtime
  variants of each when the cycle needs a process or real-time edge."
  (:require [clojure.string :as str]
            [duro.jepsen.checker.graph :as g]
            [duro.jepsen.history :as h]))

;; ---------------------------------------------------------------------------------------------------------
;; Transactions

(defn- txns
  "The history's transactions, numbered from 0 in invocation order: {:id :type :process :invoke :complete
  :mops}. :mops are the completion's micro-ops for :ok transactions, else the invocation's (whose reads
  are unknown)."
  [history]
  (vec (map-indexed (fn [id [inv c :as pair]]
                      (let [type (h/outcome pair)]
                        {:id id
                         :type type
                         :process (:process inv)
                         :invoke inv
                         :complete c
                         :mops (if (= :ok type) (:value c) (:value inv))}))
                    (h/ops-with-f #{:txn} history))))

(defn- vertex?
  "Whether a transaction is in the dependency graph: it committed, or may have (:info)."
  [txn]
  (not= :fail (:type txn)))

(defn- op-of
  "The operation that stands for a transaction in reports: its completion, or its invocation if it never
  completed."
  [txn]
  (select-keys (or (:complete txn) (:invoke txn)) [:index :type :process :value]))

(defn- tname
  "T<index>: a transaction's name in explanations, after its completion's (else invocation's) index."
  [txn]
  (str "T" (:index (or (:complete txn) (:invoke txn)))))

(defn- appends
  "Each transaction's appends in order: a sequence of {:txn id :key k :value v}."
  [txns]
  (for [t txns, [f k v] (:mops t) :when (= :append f)]
    {:txn (:id t) :key k :value v}))

(defn- reads
  "The reads of :ok transactions, in order: {:txn id :key k :value list}."
  [txns]
  (for [t txns :when (= :ok (:type t))
        [f k v] (:mops t) :when (= :r f)]
    {:txn (:id t) :key k :value (vec v)}))

;; ---------------------------------------------------------------------------------------------------------
;; Direct anomalies

(defn- prefix?
  "Whether vector a is a prefix of vector b."
  [a b]
  (and (<= (count a) (count b)) (= a (subvec b 0 (count a)))))

(defn- version-orders
  "Each key's longest read (the first such read on ties; [] if every read of it was empty)."
  [reads]
  (reduce (fn [m {:keys [key value]}]
            (if (> (count value) (count (get m key)))
              (assoc m key value)
              (update m key #(or % []))))
          {}
          reads))

(defn- first-repeat
  "The position of the first element of `xs` that repeats an earlier one, or nil."
  [xs]
  (loop [i 0, seen (transient #{})]
    (when (< i (count xs))
      (let [x (nth xs i)]
        (if (contains? seen x) i (recur (inc i) (conj! seen x)))))))

(defn- incompatible-orders
  "Reads that are not a prefix of their key's longest read, one example per distinct list."
  [txns reads longest]
  (->> reads
       (remove #(prefix? (:value %) (longest (:key %))))
       (group-by (juxt :key :value))
       (sort-by key)
       (map (fn [[[k v] [r]]]
              {:key k
               :values [v (longest k)]
               :op (op-of (txns (:txn r)))
               :explanation (str "key " k " was read as " (pr-str v) ", which is not a prefix of the longest read "
                                 (pr-str (longest k)) ", nor an extension of it")}))))

(defn- duplicate-elements
  "Reads holding an element more than once. A read that is a prefix of its key's longest read can only do
  so if it reaches past the first repeat in that longest read, so only those (and incompatible reads) are
  counted."
  [txns reads longest]
  (let [repeats (update-vals longest first-repeat)]
    (for [r reads
          :let [k (:key r)
                v (:value r)]
          :when (if (prefix? v (longest k))
                  (when-let [p (repeats k)] (> (count v) p))
                  (first-repeat v))
          :let [dups (->> (frequencies v) (filter #(> (val %) 1)) (map key) sort)]
          :when (seq dups)]
      {:key k :elements (vec dups) :op (op-of (txns (:txn r)))
       :explanation (str (tname (txns (:txn r))) " read key " k " with " (pr-str (vec dups)) " more than once")})))

(defn- duplicate-appends
  "(key, value) pairs appended more than once: the workload guarantees they are unique."
  [txns appends]
  (for [[[k v] as] (sort-by key (group-by (juxt :key :value) appends))
        :when (> (count as) 1)]
    {:key k :value v :ops (mapv #(op-of (txns (:txn %))) as)
     :explanation (str "value " v " was appended to key " k " " (count as) " times")}))

(defn- read-elements
  "The distinct [key element] pairs read, sorted. Reads that are prefixes of their key's longest read hold
  nothing the longest does not, so only the longest reads and the incompatible ones are scanned."
  [reads longest]
  (into (sorted-set)
        cat
        [(for [[k l] longest, e l] [k e])
         (for [r reads :when (not (prefix? (:value r) (longest (:key r)))), e (:value r)] [(:key r) e])]))

(defn- first-reader
  "The first read of key k (in `reads`) holding element e."
  [reads k e]
  (first (filter #(and (= k (:key %)) (some #{e} (:value %))) reads)))

(defn- element-anomalies
  "G1a, G1b and garbage reads: what the elements read say about their writers. `writer` maps [k v] to the
  appending transaction's id; `last-append` maps [txn-id k] to that transaction's final value appended to k.
  G1a and garbage reads are reported once per element, naming the first read holding it."
  [txns reads longest writer last-append]
  (let [g1a-garbage (for [[k e] (read-elements reads longest)
                          :let [w (some-> (writer [k e]) txns)]
                          :when (or (nil? w) (= :fail (:type w)))
                          :let [reader (txns (:txn (first-reader reads k e)))]]
                      (if (nil? w)
                        [:garbage-read {:key k :element e :op (op-of reader)
                                        :explanation (str (tname reader) " read element " e " of key " k
                                                          ", which no transaction appended")}]
                        [:G1a {:key k :element e :op (op-of reader) :writer (op-of w)
                               :explanation (str (tname reader) " read element " e " of key " k ", appended by "
                                                 (tname w) ", which failed (aborted read)")}]))
        g1b (for [{:keys [txn key value]} reads
                  :let [e (peek value)
                        w (when (seq value) (some-> (writer [key e]) txns))]
                  :when (and w (not= :fail (:type w)) (not= (:id w) txn) (not= e (last-append [(:id w) key])))
                  :let [reader (txns txn)]]
              [:G1b {:key key :element e :op (op-of reader) :writer (op-of w)
                     :explanation (str (tname reader) " read key " key " ending in " e ", but " (tname w)
                                       " went on to append " (last-append [(:id w) key])
                                       " to it (intermediate read)")}])]
    (reduce (fn [m [type a]] (update m type (fnil conj []) a)) {} (concat g1a-garbage g1b))))

(defn- internal-anomalies
  "Reads that contradict what the transaction itself did earlier: after its own read of a key and appends,
  it must read exactly that list extended by them; after appends alone, a list ending with them."
  [txns]
  (for [t txns :when (= :ok (:type t))
        :let [bad (reduce (fn [state [f k v :as mop]]
                            (let [[kind xs] (get state k)]
                              (case f
                                :append (assoc state k [(or kind :suffix) (conj (or xs []) v)])
                                :r (let [v (vec v)
                                         ok? (case kind
                                               nil true
                                               :exact (= v xs)
                                               :suffix (and (>= (count v) (count xs))
                                                            (= xs (subvec v (- (count v) (count xs))))))]
                                     (if ok?
                                       (assoc state k [:exact v])
                                       (reduced {::bad {:mop mop :expected (if (= :exact kind)
                                                                              xs
                                                                              (into ['...] xs))}}))))))
                          {}
                          (:mops t))]
        :when (::bad bad)]
    (let [{:keys [mop expected]} (::bad bad)]
      {:op (op-of t) :mop mop :expected expected
       :explanation (str (tname t) " read " (pr-str mop) " but its own earlier operations imply "
                         (pr-str expected))})))

(defn- future-reads
  "Reads that hold an element the transaction itself appends only later."
  [txns]
  (for [t txns :when (= :ok (:type t))
        :let [mops (vec (:mops t))]
        [i [f k v :as mop]] (map-indexed vector mops)
        :when (= :r f)
        :let [later (set (for [[f' k' v'] (subvec mops (inc i)) :when (and (= :append f') (= k k'))] v'))
              e (when (seq later) (some later v))]
        :when e]
    {:op (op-of t) :mop mop :element e
     :explanation (str (tname t) " read " (pr-str mop) ", holding " e " before appending " e " itself")}))

;; ---------------------------------------------------------------------------------------------------------
;; Dependency graph

(defn- next-element
  "The element after e (nil: the initial state) in key k's version order, or nil."
  [{:keys [orders positions]} k e]
  (when-let [pos (if (nil? e) -1 (get-in positions [k e]))]
    (get (orders k) (inc pos))))

(defn- vertex-writer
  "The id of the graph transaction that appended e to k, or nil."
  [{:keys [txns writer]} k e]
  (when-let [w (writer [k e])]
    (when (vertex? (txns w)) w)))

(defn- data-edges
  "ww, wr and rw edges [from to label] from the version orders and `reads`, the reads that are prefixes of
  their key's longest read (the others are :incompatible-order already)."
  [{:keys [orders] :as ctx} reads]
  (concat
    (for [[k order] orders
          [e1 e2] (partition 2 1 order)
          :let [a (vertex-writer ctx k e1), b (vertex-writer ctx k e2)]
          :when (and a b)]
      [a b :ww])
    (for [{:keys [txn key value]} reads
          :let [e (peek value)
                w (when e (vertex-writer ctx key e))
                n (some->> (next-element ctx key e) (vertex-writer ctx key))]
          edge [(when w [w txn :wr]) (when n [txn n :rw])]
          :when edge]
      edge)))

(defn- process-edges
  "Process order: each committed transaction precedes the process's next transaction in the graph."
  [txns]
  (for [[_ ts] (group-by :process (filter vertex? txns))
        [a b] (partition 2 1 ts)
        :when (= :ok (:type a))]
    [(:id a) (:id b) :process]))

(defn- realtime-edges
  "Real-time order, transitively reduced: walking the history, each invocation gets an edge from every
  transaction on the frontier (committed, and not already known to precede a later-committed one), and each
  commit replaces on the frontier the transactions it is known to follow."
  [txns]
  (let [events (sort-by first
                        (concat (for [t txns :when (vertex? t)] [(:index (:invoke t)) :invoke (:id t)])
                                (for [t txns :when (= :ok (:type t))] [(:index (:complete t)) :complete (:id t)])))]
    (loop [[[_ kind id] & more] events, frontier #{}, preds {}, out (transient [])]
      (case kind
        nil (persistent! out)
        :invoke (recur more frontier (assoc preds id frontier)
                       (reduce #(conj! %1 [%2 id :realtime]) out (sort frontier)))
        :complete (recur more (conj (reduce disj frontier (preds id)) id) (dissoc preds id) out)))))

(defn- reason
  "Why a data edge from `from` to `to` exists: {:key :value :next} (the elements involved), found again from
  the transactions' micro-ops, so that only the edges of reported cycles pay for it."
  [{:keys [txns] :as ctx} from to label]
  (let [written-by? (fn [k e id] (and e (= id (vertex-writer ctx k e))))]
    (first
      (case label
        :ww (for [[f k v] (:mops (txns from))
                  :let [n (when (= :append f) (next-element ctx k v))]
                  :when (written-by? k n to)]
              {:key k :value v :next n})
        :wr (for [[f k v] (:mops (txns to))
                  :when (and (= :r f) (written-by? k (peek (vec v)) from))]
              {:key k :value (peek (vec v))})
        :rw (for [[f k v] (:mops (txns from))
                  :when (= :r f)
                  :let [e (peek (vec v))]
                  :when (written-by? k (next-element ctx k e) to)]
              {:key k :value e :next (next-element ctx k e)})
        nil))))

;; ---------------------------------------------------------------------------------------------------------
;; Cycles

(def ^:private data-labels #{:ww :wr :rw})
(def ^:private order-labels #{:process :realtime})

(def ^:private specs
  "The cycle searches, most severe first: each is a cycle whose first edge has label :through and whose
  other edges have labels in :others. The order variants allow process and real-time edges too."
  (let [base [{:name "G0" :through :ww :others #{:ww}}
              {:name "G1c" :through :wr :others #{:ww :wr}}
              {:name "G-single" :through :rw :others #{:ww :wr}}
              {:name "G2-item" :through :rw :others data-labels}]]
    {:data (mapv #(assoc % :order? false) base)
     :order (into [{:name "G0" :through :realtime :others #{:ww :process :realtime} :order? true}
                   {:name "G0" :through :process :others #{:ww :process :realtime} :order? true}]
                  (map #(assoc % :order? true :others (into (:others %) order-labels)))
                  (rest base))}))

(defn classify
  "An anomaly type for a cycle's steps: :G0 (ww only), :G1c (ww/wr), :G-single (one rw), :G2-item (more
  rw), suffixed -realtime if it uses a real-time edge, else -process if it uses a process edge."
  [steps]
  (let [labels (map :label steps)
        rw (count (filter #{:rw} labels))
        base (cond (> rw 1) "G2-item"
                   (= rw 1) "G-single"
                   (some #{:wr} labels) "G1c"
                   :else "G0")
        suffix (cond (some #{:realtime} labels) "-realtime"
                     (some #{:process} labels) "-process"
                     :else "")]
    (keyword (str base suffix))))

(defn- matches?
  "Whether a found cycle's type is what the spec searched for."
  [spec type]
  (let [t (name type)]
    (and (str/starts-with? t (:name spec))
         (= (:order? spec) (not= t (:name spec))))))

(defn- explain-step
  "Why the step's source transaction precedes its target."
  [{:keys [txns] :as ctx} {:keys [from to label]}]
  (let [a (txns from), b (txns to), {:keys [key value next]} (reason ctx from to label)]
    (case label
      :ww (str (tname a) " appended " value " to key " key ", and " (tname b) " appended " next " right after it")
      :wr (str (tname b) " read key " key " ending in " value ", which " (tname a) " appended")
      :rw (str (tname a) " read key " key (if value (str " ending in " value) " empty") " and did not see "
               next ", which " (tname b) " appended next")
      :process (str (tname a) " and " (tname b) " ran on process " (:process a) ", in that order")
      :realtime (str (tname a) " completed (index " (:index (:complete a)) ") before " (tname b)
                     " was invoked (index " (:index (:invoke b)) ")"))))

(defn- cycle-example
  "A reportable cycle: its transactions and each step with its explanation."
  [{:keys [txns] :as ctx} steps]
  {:cycle (mapv #(op-of (txns (:from %))) steps)
   :steps (mapv (fn [s] (assoc (select-keys s [:label]) :from (tname (txns (:from s)))
                               :to (tname (txns (:to s)))
                               :explanation (explain-step ctx s)))
                steps)})

(defn- component-cycles
  "The typed cycles found in one strongly connected component (a set), searched for with `specs` in order;
  a search whose result is of another type is not reported, as that type has its own search. If nothing
  is found (every search ran out of budget) and `fallback` labels are given, some cycle along them is."
  [graph component specs budget fallback]
  (let [found (->> specs
                   (keep (fn [spec]
                           (when-let [steps (g/cycle-through graph component (:through spec) (:others spec) budget)]
                             (let [type (classify steps)]
                               (when (matches? spec type) [type steps])))))
                   (reduce (fn [m [type steps]] (if (contains? m type) m (assoc m type steps))) (sorted-map)))]
    (if (or (seq found) (nil? fallback))
      (seq found)
      [(let [steps (g/any-cycle graph component fallback)] [(classify steps) steps])])))

(defn- cycles
  "Cycle anomalies {type [steps ...]}: first in the ww/wr/rw graph, then in the graph with process and
  real-time edges too, where only cycles that need such an edge are new. A component of the full graph
  that holds no data cycle must have one, so a cycle is always reported for it."
  [graph vertices budget]
  (let [data-comps (g/sccs (:n graph) vertices #(g/successors graph data-labels nil %))
        in-data (set (mapcat identity data-comps))
        all-labels (into data-labels order-labels)
        full-comps (g/sccs (:n graph) vertices #(g/successors graph all-labels nil %))
        found (concat
                (mapcat #(component-cycles graph (set %) (:data specs) budget data-labels) data-comps)
                (mapcat #(component-cycles graph (set %) (:order specs) budget
                                           (when-not (some in-data %) all-labels))
                        full-comps))]
    (reduce (fn [m [type steps]] (update m type (fnil conj []) steps)) {} found)))

;; ---------------------------------------------------------------------------------------------------------
;; The checker

(defn- strict-only?
  "Whether an anomaly type violates strict serializability but not serializability."
  [type]
  (boolean (re-find #"-(process|realtime)$" (name type))))

(defn check
  "Checks a list-append history. Options:
    :consistency-model   :strict-serializable (default) or :serializable, deciding :valid?
    :cycle-search-budget edges a typed cycle search may look at per component (default 1000000)
  Returns {:valid? bool, :serializable? bool, :strict-serializable? bool, :anomaly-types [sorted keywords],
  :anomalies {type [example ...]}, :txn-count n, :ok-count n, :info-count n, :fail-count n}. An example of a
  cycle is {:cycle [op ...] :steps [{:from \"T12\" :to \"T15\" :label :ww :explanation \"...\"} ...]}; the
  others name the key, element and operations involved, with an :explanation."
  ([history] (check history {}))
  ([history opts]
   (let [model (:consistency-model opts :strict-serializable)
         budget (:cycle-search-budget opts 1000000)
         txns (txns (h/ensure-indexed history))
         appends (appends txns)
         reads (vec (reads txns))
         writer (into {} (map (juxt (juxt :key :value) :txn)) appends)
         last-append (into {} (map (juxt (juxt :txn :key) :value)) appends)
         longest (version-orders reads)
         orders (update-vals longest (comp vec distinct))
         ctx {:txns txns
              :writer writer
              :orders orders
              :positions (update-vals orders #(zipmap % (range)))}
         compatible (filterv #(prefix? (:value %) (longest (:key %))) reads)
         edges (concat (data-edges ctx compatible) (process-edges txns) (realtime-edges txns))
         graph (g/build (count txns) edges)
         direct (merge-with into
                            (element-anomalies txns reads longest writer last-append)
                            {:incompatible-order (vec (incompatible-orders txns reads longest))
                             :duplicate-elements (vec (duplicate-elements txns reads longest))
                             :duplicate-appends (vec (duplicate-appends txns appends))
                             :internal (vec (internal-anomalies txns))
                             :future-read (vec (future-reads txns))})
         cyclic (update-vals (cycles graph (map :id (filter vertex? txns)) budget)
                             #(mapv (partial cycle-example ctx) %))
         anomalies (into (sorted-map) (remove (comp empty? val)) (merge direct cyclic))
         types (vec (keys anomalies))
         serializable? (not-any? (complement strict-only?) types)
         strict? (empty? types)]
     {:valid? (if (= model :serializable) serializable? strict?)
      :serializable? serializable?
      :strict-serializable? strict?
      :anomaly-types types
      :anomalies anomalies
      :txn-count (count txns)
      :ok-count (count (filter #(= :ok (:type %)) txns))
      :info-count (count (filter #(= :info (:type %)) txns))
      :fail-count (count (filter #(= :fail (:type %)) txns))})))
