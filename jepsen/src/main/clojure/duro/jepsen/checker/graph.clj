(ns duro.jepsen.checker.graph
  "Dependency graphs for the transactional checkers, and the cycle searches they need.

  A graph is {:n vertex-count, :out vector}: vertices are the integers 0..n-1 and (out v) maps each successor
  of v to the set of relation labels on that edge (:ww, :wr, :rw, :process, :realtime). Searches take a set of
  allowed labels and look only at edges carrying one of them; a step of a found cycle names the label it used,
  the first allowed one in `label-preference` (the most telling: a :ww edge that is also :realtime is shown
  as :ww).")

(def label-preference
  "Labels in the order a step of a cycle prefers them."
  [:ww :wr :rw :process :realtime])

(defn build
  "A graph over `n` vertices from `edges`, a collection of [from to label]. Self-edges are dropped."
  [n edges]
  {:n n
   :out (persistent!
          (reduce (fn [out [a b label]]
                    (if (= a b)
                      out
                      (assoc! out a (update (nth out a) b (fnil conj #{}) label))))
                  (transient (vec (repeat n {})))
                  edges))})

(defn- label-for
  "The label a step along an edge with `labels` uses, given the `allowed` ones; nil if none is allowed."
  [labels allowed]
  (some #(when (and (contains? labels %) (contains? allowed %)) %) label-preference))

(defn successors
  "Successors of v along edges with an allowed label, restricted to the vertex set `within` (a set, or nil
  for all)."
  [graph allowed within v]
  (for [[w labels] (nth (:out graph) v)
        :when (and (or (nil? within) (contains? within w)) (label-for labels allowed))]
    w))

(defn sccs
  "The strongly connected components with more than one vertex among `vertices`, following (succ v), which
  must return a collection of vertices (ints below n). Iterative Tarjan, so deep graphs cannot overflow the
  stack. Each component is a sorted vector; components are ordered by their smallest vertex."
  [n vertices succ]
  (let [index (int-array n -1)
        low (int-array n)
        on-stack (boolean-array n)
        stack (java.util.ArrayDeque.)
        work (java.util.ArrayDeque.)
        counter (int-array 1)
        out (java.util.ArrayList.)
        open! (fn [v]
                (let [v (int v), i (aget counter 0)]
                  (aset index v i)
                  (aset low v i)
                  (aset counter 0 (inc i))
                  (.push stack v)
                  (aset on-stack v true)
                  (.push work (object-array [v (let [^Iterable s (or (seq (succ v)) [])] (.iterator s))]))))
        close! (fn [v]
                 (let [v (int v)]
                   (when (= (aget low v) (aget index v))
                     (let [component (loop [acc []]
                                       (let [w (int (.pop stack))]
                                         (aset on-stack w false)
                                         (if (= w v) (conj acc (long w)) (recur (conj acc (long w))))))]
                       (when (> (count component) 1)
                         (.add out (vec (sort component))))))))]
    (doseq [root vertices :when (neg? (aget index (int root)))]
      (open! root)
      (while (not (.isEmpty work))
        (let [^objects frame (.peek work)
              v (int (aget frame 0))
              ^java.util.Iterator it (aget frame 1)]
          (if (.hasNext it)
            (let [w (int (.next it))]
              (cond
                (neg? (aget index w)) (open! w)
                (aget on-stack w) (aset low v (min (aget low v) (aget index w)))))
            (do (.pop work)
                (when-let [^objects parent (.peek work)]
                  (let [u (int (aget parent 0))]
                    (aset low u (min (aget low u) (aget low v)))))
                (close! v))))))
    (vec (sort-by first out))))

(defn- bfs-path
  "A shortest path from `from` to `to` along (succ v), as a vector of vertices [from ... to], or nil. Each
  edge looked at spends one unit of `budget` (a volatile); the search gives up (nil) when it runs out."
  [succ from to budget]
  (let [parent (java.util.HashMap.)
        queue (java.util.ArrayDeque.)]
    (.put parent from from)
    (.add queue from)
    (loop []
      (when-not (or (.isEmpty queue) (neg? @budget))
        (let [v (.poll queue)
              hit (reduce (fn [_ w]
                            (vswap! budget dec)
                            (when-not (.containsKey parent w)
                              (.put parent w v)
                              (.add queue w))
                            (when (= w to) (reduced w)))
                          nil
                          (succ v))]
          (if hit
            (loop [path (list to)]
              (let [p (.get parent (first path))]
                (if (= p (first path)) (vec path) (recur (conj path p)))))
            (recur)))))))

(defn- steps
  "The steps of the cycle through `vertices` (first vertex not repeated at the end): [{:from :to :label}],
  each using its preferred allowed label. The first step may be forced to `first-label`."
  [graph vertices allowed first-label]
  (let [n (count vertices)]
    (vec (for [i (range n)
               :let [a (nth vertices i)
                     b (nth vertices (mod (inc i) n))
                     labels (get (nth (:out graph) a) b)]]
           {:from a
            :to b
            :label (if (and (zero? i) first-label) first-label (label-for labels allowed))}))))

(defn cycle-through
  "A short cycle within the vertex set `within` that starts with an edge labelled `through` and continues
  along edges with labels in `others`: the steps [{:from :to :label}], or nil if none was found within the
  `budget` (edges looked at). Tries the candidate first edges in vertex order, each with a breadth-first
  search back to its source, so the cycle is shortest for that first edge."
  [graph within through others budget]
  (let [budget (volatile! budget)
        succ #(successors graph others within %)
        first-edges (for [a (sort within)
                          [b labels] (sort-by key (nth (:out graph) a))
                          :when (and (contains? within b) (contains? labels through))]
                      [a b])]
    (some (fn [[a b]]
            (when-not (neg? @budget)
              (when-let [path (bfs-path succ b a budget)]
                (steps graph (into [a] (butlast path)) others through))))
          first-edges)))

(defn any-cycle
  "Some shortest cycle through the smallest vertex of the strongly connected set `within`, along edges with
  `allowed` labels: its steps. Always succeeds on a strongly connected set."
  [graph within allowed]
  (let [v (first (sort within))
        succ #(successors graph allowed within %)
        budget (volatile! Long/MAX_VALUE)]
    (some (fn [w]
            (when-let [path (bfs-path succ w v budget)]
              (steps graph (into [v] (butlast path)) allowed nil)))
          (sort (succ v)))))
