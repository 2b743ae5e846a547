(ns duro.jepsen.checker.adya
  "List-append histories checked by adya (the Rust crate, pinned at 0.1.0): an independent, black-box
  Elle-style checker, as a second opinion on duro.jepsen.checker.list-append.

  adya is installed on first use with cargo into target/adya/ (a few minutes the first time), from then on
  reused. It reads our JSON lines (duro.jepsen.history/write-jsonl!) and is run as
    adya check -m list-append -c <consistency model> --json <history>"
  (:require [clojure.data.json :as json]
            [clojure.java.io :as io]
            [duro.jepsen.checker.external :as x]
            [duro.jepsen.checker.list-append :as list-append]
            [duro.jepsen.history :as h]))

(def version "The adya version used." "0.1.0")

(defn available?
  "Whether cargo, needed to install adya, is installed."
  []
  (x/on-path? "cargo"))

(defn binary
  "adya's executable, installed with cargo under target/adya if it is not there yet."
  ^java.io.File []
  (let [root (x/target-file "adya" "bin")
        bin (io/file root "adya")]
    (when-not (.exists bin)
      (x/exec! ["cargo" "install" "adya" "--version" version "--locked" "--no-default-features"
                "--root" (.getAbsolutePath (.getParentFile root))]))
    bin))

(defn check
  "Checks a list-append history with adya. Options: :consistency-model, :strict-serializable (default) or
  :serializable. Returns {:valid? true|false|:unknown, :anomaly-types [keyword ...], :raw (adya's JSON
  report, parsed)}."
  ([history] (check history {}))
  ([history opts]
   (let [model (name (:consistency-model opts :strict-serializable))
         file (x/target-file "adya" (str "history-" (System/nanoTime) ".jsonl"))]
     (try
       (h/write-jsonl! file (h/ensure-indexed history))
       (let [{:keys [out]} (x/exec! [(.getAbsolutePath (binary)) "check" "-m" "list-append" "-c" model "--json"
                                     (.getAbsolutePath file)]
                                    :ok-exits #{0 1 2})
             raw (json/read-str out :key-fn keyword)]
         {:valid? (if (= "unknown" (:valid raw)) :unknown (:valid raw))
          :anomaly-types (mapv keyword (:anomaly_types raw))
          :raw raw})
       (finally (.delete file))))))

(defn normalize-type
  "adya's name for an anomaly type in our checker's terms (its G-single-item is our G-single), or nil for
  its reports that are not anomalies of their own (empty-transaction-graph, the model-level
  ...-cycle-exists summaries)."
  [type]
  (let [t (name type)]
    (when-not (or (= t "empty-transaction-graph") (.endsWith t "-cycle-exists"))
      (keyword (.replace t "G-single-item" "G-single")))))

(defn cross-check
  "Checks a list-append history with our checker and with adya, side by side. Options as for
  list-append/check. Returns {:valid? ..., :agree? bool, :same-types? bool, :ours {...}, :adya {...},
  :explanation (when they disagree)}: they agree when their verdicts are equal; a disagreement makes :valid?
  false. :same-types? tells whether they also named the same anomaly types (adya's normalized with
  normalize-type); it is informational, as the two may pick different example cycles in a component."
  ([history] (cross-check history {}))
  ([history opts]
   (let [ours (list-append/check history opts)
         theirs (check history opts)
         agree? (= (:valid? ours) (:valid? theirs))
         adya-types (into (sorted-set) (keep normalize-type) (:anomaly-types theirs))]
     (when-not agree?
       (binding [*out* *err*]
         (println "LIST-APPEND CHECKERS DISAGREE: ours" (:valid? ours) (:anomaly-types ours)
                  "adya" (:valid? theirs) (:anomaly-types theirs))))
     (cond-> {:valid? (and agree? (:valid? ours))
              :agree? agree?
              :same-types? (= (set (:anomaly-types ours)) adya-types)
              :ours ours
              :adya (dissoc theirs :raw)}
       (not agree?) (assoc :explanation
                           (str "our list-append checker says " (:valid? ours) " " (:anomaly-types ours)
                                ", adya says " (:valid? theirs) " " (:anomaly-types theirs)
                                ": one of them is wrong, so this history's verdict cannot be trusted"))))))
