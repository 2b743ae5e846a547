(ns duro.jepsen.checker.linearizable
  "Register linearizability, checked twice: by our own search (duro.jepsen.checker.register) and by porcupine
  (duro.jepsen.checker.porcupine). The two must agree on every key; a disagreement means one of the checkers
  is wrong, so the verdict is then false, with a loud explanation."
  (:require [duro.jepsen.checker.porcupine :as porcupine]
            [duro.jepsen.checker.register :as register]))

(defn- ours-per-key
  "Our checker's verdict on each key: true, false or :unknown."
  [result keys]
  (into (sorted-map) (for [k keys]
                       [k (cond (contains? (:failures result) k) false
                                (contains? (:unknown result) k) :unknown
                                :else true)])))

(defn- combine
  "One verdict from two that do not contradict each other: false if either is, else true if either is,
  else :unknown."
  [a b]
  (cond (or (false? a) (false? b)) false
        (or (true? a) (true? b)) true
        :else :unknown))

(defn check
  "Runs both checkers. Options are passed to both (:budget for ours, :timeout-s for porcupine). Returns
  {:valid? ..., :agree? bool, :ours (register/check's result), :porcupine (porcupine/check's result),
  :disagreements {k {:ours v :porcupine v}}, :explanation (when they disagree)}. Keys where either gave up
  (:unknown) are not disagreements: :valid? is then the other's verdict, :unknown if both gave up."
  ([history] (check history {}))
  ([history opts]
   (let [ours (register/check history opts)
         theirs (porcupine/check history opts)
         ours-by-key (ours-per-key ours (keys (:per-key theirs)))
         disagreements (into (sorted-map)
                             (for [[k v] ours-by-key
                                   :let [w (get-in theirs [:per-key k])]
                                   :when (and (boolean? v) (boolean? w) (not= v w))]
                               [k {:ours v :porcupine w}]))
         agree? (and (empty? disagreements) (= (:keys-checked ours) (:keys-checked theirs)))]
     (when-not agree?
       (binding [*out* *err*]
         (println "LINEARIZABILITY CHECKERS DISAGREE:" disagreements)))
     (cond-> {:valid? (if agree? (combine (:valid? ours) (:valid? theirs)) false)
              :agree? agree?
              :ours ours
              :porcupine theirs
              :disagreements disagreements}
       (not agree?) (assoc :explanation
                           (str "our linearizability checker and porcupine disagree on keys "
                                (vec (keys disagreements)) " (keys checked: ours " (:keys-checked ours)
                                ", porcupine " (:keys-checked theirs) "): one of them is wrong, so this "
                                "history's verdict cannot be trusted"))))))
