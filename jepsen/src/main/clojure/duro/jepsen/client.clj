(ns duro.jepsen.client
  "Operations against Duro through its Java client, one function per workload. Each takes the DuroClient and
  an :invoke operation and returns the completion: :ok with the result, :fail when the operation certainly
  took no effect (an abort, a failed read, a failed precondition, or an error before commit was sent), :info
  when it may or may not have taken effect (commit sent, then an unavailable node, timeout or other error).

  Values are UTF-8 text: list-append lists as comma-separated integers, registers and balances as integers."
  (:require [clojure.string :as str])
  (:import (dev.duro.client DuroClient KeyValue ReadConsistency ReadOnlyTransaction Transaction
                            TransactionAbortedException UnavailableException)
           (dev.duro.core Bytes DuroException SnapshotTooOldException)
           (java.util.concurrent CompletableFuture CompletionException)))

;; ---- keys and values ----

(defn la-key ^String [k] (str "la/" k))
(defn reg-key ^String [k] (str "reg/" k))
(defn acct-key ^String [a] (str "bank/" a))
(defn set-key ^String [x] (str "set/" x))
(def pred-root "pred/")
(defn pred-prefix ^String [g] (str pred-root g "/"))
(defn pred-key ^String [g id] (format "%s%d/%08d" pred-root g id))

(defn parse-list [^String s]
  (if (or (nil? s) (str/blank? s)) [] (mapv parse-long (str/split s #","))))

(defn encode-list ^String [xs] (str/join "," xs))

(defn parse-int [^String s] (when s (parse-long s)))

(defn- partition-of [^DuroClient c ^String key]
  (.partitionOf (.cluster c) (Bytes/utf8 key)))

(defn partition-of-key
  "The partition a string key lives on, by the client's cluster view."
  [^DuroClient c key]
  (partition-of c key))

;; ---- outcome classification ----

(defn- error-name [^Throwable e]
  (str (.getSimpleName (class e)) ": " (.getMessage e)))

(defn- unwrap ^Throwable [^Throwable e]
  (if (and (instance? CompletionException e) (.getCause e)) (.getCause e) e))

(defn- outcome
  "The completion for an exception: committing? says whether the commit request may have been sent."
  [op ^Throwable e committing?]
  (let [e (unwrap e)]
    (cond
      (instance? TransactionAbortedException e)
      (assoc op :type :fail :error [:aborted (str (.reason ^TransactionAbortedException e))])

      (not committing?)
      (assoc op :type :fail :error [:before-commit (error-name e)])

      :else
      (assoc op :type :info :error [:indefinite (error-name e)]))))

(defn- read-only ^ReadOnlyTransaction [^DuroClient c]
  (.beginReadOnly c ReadConsistency/LINEARIZABLE))

(defn- read-many
  "Reads keys in one read-only transaction, a window of requests in flight at a time. Returns a vector of
  strings (nil for absent)."
  [^ReadOnlyTransaction ro keys]
  (into []
        (mapcat (fn [chunk]
                  (let [fs (mapv #(.getAsync ro (Bytes/utf8 ^String %)) chunk)]
                    (mapv #(some-> ^Bytes (.join ^CompletableFuture %) (.toUtf8)) fs))))
        (partition-all 64 keys)))

(defmacro ^:private guarded
  "Runs body; an exception becomes the completion for op. Inside body, (committing!) marks that the commit
  request may now be on its way."
  [op & body]
  `(let [committing# (volatile! false)
         ~'committing! (fn [] (vreset! committing# true))]
     (try ~@body
          (catch Throwable e#
            (outcome ~op e# @committing#)))))

;; ---- list-append ----

(defn list-append
  "{:f :txn :value [[:append k v] [:r k nil] ...]}. Transactions of reads only run as linearizable read-only
  transactions; the others read each touched key in an update transaction and write the appended list."
  [^DuroClient c op]
  (let [mops (:value op)]
    (guarded op
      (if (every? #(= :r (first %)) mops)
        (let [ro (read-only c)
              vals (read-many ro (map #(la-key (second %)) mops))]
          (assoc op :type :ok :value (mapv (fn [[f k _] v] [f k (parse-list v)]) mops vals)))
        (with-open [^Transaction tx (.begin c)]
          (let [done (mapv (fn [[f k v]]
                             (let [cur (parse-list (.get tx (la-key k)))]
                               (case f
                                 :r [:r k cur]
                                 :append (do (.put tx (la-key k) (encode-list (conj cur v)))
                                             [:append k v]))))
                           mops)]
            (committing!)
            (.commit tx)
            (assoc op :type :ok :value done)))))))

;; ---- register ----

(defn register
  "{:f :read :value [k nil]} by a linearizable read-only transaction; {:f :write :value [k v]};
  {:f :cas :value [k [old new]]} reads, compares (a mismatch fails without committing) and writes."
  [^DuroClient c op]
  (let [[k v] (:value op)]
    (guarded op
      (case (:f op)
        :read (let [ro (read-only c)]
                (assoc op :type :ok :value [k (parse-int (.get ro (reg-key k)))]))
        :write (with-open [^Transaction tx (.begin c)]
                 (.put tx (reg-key k) (str v))
                 (committing!)
                 (.commit tx)
                 (assoc op :type :ok))
        :cas (with-open [^Transaction tx (.begin c)]
               (let [[old new] v
                     cur (parse-int (.get tx (reg-key k)))]
                 (if (not= cur old)
                   (assoc op :type :fail :error [:cas-mismatch cur])
                   (do (.put tx (reg-key k) (str new))
                       (committing!)
                       (.commit tx)
                       (assoc op :type :ok)))))))))

;; ---- bank ----

(defn bank-setup!
  "Writes the initial balances in one transaction, retrying until it commits (a commit that may have happened
  is checked by reading first)."
  [^DuroClient c accounts balance deadline-ns]
  (loop []
    (let [done? (try
                  (with-open [^Transaction tx (.begin c)]
                    (let [existing (mapv #(.get tx (acct-key %)) accounts)]
                      (if (every? some? existing)
                        true
                        (do (doseq [a accounts] (.put tx (acct-key a) (str balance)))
                            (.commit tx)
                            true))))
                  (catch DuroException _ false))]
      (cond done? true
            (> (System/nanoTime) deadline-ns) (throw (ex-info "bank setup did not commit" {}))
            :else (do (Thread/sleep 500) (recur))))))

(defn bank
  "{:f :transfer :value {:from a :to b :amount n}} reads both balances and fails when from has too little;
  {:f :read} reads every account in a linearizable read-only transaction."
  [accounts ^DuroClient c op]
  (guarded op
    (case (:f op)
      :read (let [ro (read-only c)
                  vals (read-many ro (map acct-key accounts))]
              (assoc op :type :ok :value (zipmap accounts (map parse-int vals))))
      :transfer (with-open [^Transaction tx (.begin c)]
                  (let [{:keys [from to amount]} (:value op)
                        fb (or (parse-int (.get tx (acct-key from))) 0)
                        tb (or (parse-int (.get tx (acct-key to))) 0)]
                    (if (< fb amount)
                      (assoc op :type :fail :error [:insufficient fb])
                      (do (.put tx (acct-key from) (str (- fb amount)))
                          (.put tx (acct-key to) (str (+ tb amount)))
                          (committing!)
                          (.commit tx)
                          (assoc op :type :ok))))))))

;; ---- set ----

(defn set-client
  "{:f :add :value x} writes key set/x; {:f :read} reads set/0 .. set/<max-x> (every element that may have
  been added: Duro has no range scan) in one linearizable read-only transaction and returns the sorted
  elements present."
  [max-element ^DuroClient c op]
  (guarded op
    (case (:f op)
      :add (with-open [^Transaction tx (.begin c)]
             (.put tx (set-key (:value op)) "1")
             (committing!)
             (.commit tx)
             (assoc op :type :ok))
      :read (let [n (inc (max-element))
                  ro (read-only c)
                  vals (read-many ro (map set-key (range n)))]
              (assoc op :type :ok
                     :value (vec (keep-indexed (fn [i v] (when v i)) vals)))))))

;; ---- predicate ----

(def ^:private pred-scan-limit
  "Scans ask for this many keys at most: far above the bound, so a scan observes (and certifies) its whole
  prefix, and a group that grew past the bound is seen whole."
  10000)

(defn- pred-entry
  "[group id] of a key pred/<group>/<id>."
  [^KeyValue kv]
  (let [[_ g id] (str/split (.keyText kv) #"/")]
    [(parse-long g) (parse-long id)]))

(defn predicate
  "{:f :insert :value {:group g :id x}}: an update transaction scans prefix pred/<g>/ and inserts pred/<g>/<x>
  only if it saw fewer than `bound` keys (else it fails with [:full n] without committing); ok, the value gains
  :seen, the sorted ids the scan returned, and (on-inserted g x) is called. The bound is guarded by nothing but
  the scan: two concurrent inserts that both saw bound - 1 keys and both commit are a phantom.
  {:f :delete :value {:group g :id x}}: a blind delete of pred/<g>/<x> (no read).
  {:f :read}: one linearizable read-only scan of every group; ok, {group [ids]} for groups 0..groups-1."
  [groups bound on-inserted ^DuroClient c op]
  (guarded op
    (case (:f op)
      :insert (with-open [^Transaction tx (.begin c)]
                (let [{:keys [group id]} (:value op)
                      seen (vec (sort (map (comp second pred-entry)
                                           (.scanPrefix tx (pred-prefix group) (int pred-scan-limit)))))]
                  (if (>= (count seen) bound)
                    (assoc op :type :fail :error [:full (count seen)])
                    (do (.put tx (pred-key group id) "1")
                        (committing!)
                        (.commit tx)
                        (on-inserted group id)
                        (assoc op :type :ok :value (assoc (:value op) :seen seen))))))
      :delete (with-open [^Transaction tx (.begin c)]
                (let [{:keys [group id]} (:value op)]
                  (.delete tx (pred-key group id))
                  (committing!)
                  (.commit tx)
                  (assoc op :type :ok)))
      :read (let [ro (read-only c)
                  found (map pred-entry (.scanPrefix ro ^String pred-root (int pred-scan-limit)))]
              (assoc op :type :ok
                     :value (reduce (fn [m [g id]] (update m g (fnil conj []) id))
                                    (into (sorted-map) (for [g (range groups)] [g []]))
                                    found))))))
