(ns duro.jepsen.checker.set
  "The set workload's checker: clients add unique integers, and a final read returns every element.

    {:f :add :value x}
    {:f :read :value nil}  ok, the elements (a vector or set)

  Every :ok add must be in the final read (else it is lost); nothing that was not added (or whose add :failed)
  may be (else it is unexpected); :info adds may or may not be, those present are recovered."
  (:require [duro.jepsen.history :as h]))

(defn- sorted-vec [xs] (vec (sort xs)))

(defn check
  "Checks a set history against its last :ok read. Returns {:valid? true|false|:unknown (no final read),
  :attempt-count, :ok-count, :info-count, :fail-count (adds by outcome), :read-count (elements in the final
  read), :lost, :unexpected, :recovered, :duplicated (sorted vectors) and their counts :lost-count,
  :unexpected-count, :recovered-count, :duplicated-count}. :duplicated are elements the final read holds
  more than once."
  [history]
  (let [adds (h/ops-with-f #{:add} history)
        by-outcome (group-by h/outcome adds)
        values (fn [outcome] (set (map (comp :value first) (by-outcome outcome))))
        ok (values :ok)
        info (values :info)
        final (->> (h/ops-with-f #{:read} history) (keep second) (filter h/ok?) last)
        counts {:attempt-count (count adds)
                :ok-count (count ok)
                :info-count (count info)
                :fail-count (count (values :fail))}]
    (if-not final
      (assoc counts :valid? :unknown :error "no :ok final read")
      (let [elements (vec (:value final))
            present (set elements)
            result {:lost (sorted-vec (remove present ok))
                    :unexpected (sorted-vec (remove #(or (ok %) (info %)) present))
                    :recovered (sorted-vec (filter present info))
                    :duplicated (sorted-vec (keep (fn [[x n]] (when (> n 1) x)) (frequencies elements)))}]
        (merge counts
               result
               {:valid? (and (empty? (:lost result)) (empty? (:unexpected result)) (empty? (:duplicated result)))
                :read-count (count present)
                :lost-count (count (:lost result))
                :unexpected-count (count (:unexpected result))
                :recovered-count (count (:recovered result))
                :duplicated-count (count (:duplicated result))})))))
