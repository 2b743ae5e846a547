(ns duro.jepsen.workload.register
  "Knossos-style registers: a few integer keys, each a register of small integers; reads (linearizable
  read-only transactions), writes and compare-and-sets."
  (:require [duro.jepsen.client :as client]))

(defn workload
  [{:keys [^java.util.Random rng key-count] :or {key-count 3}} _view-partition]
  (let [gen (fn []
              (locking rng
                (let [k (.nextInt rng key-count)
                      x (.nextDouble rng)]
                  (cond
                    (< x 0.5) {:f :read :value [k nil]}
                    (< x 0.75) {:f :write :value [k (.nextInt rng 5)]}
                    :else {:f :cas :value [k [(.nextInt rng 5) (.nextInt rng 5)]]}))))]
    {:name :register
     :generator gen
     :client client/register
     :final-ops (fn [] (for [k (range key-count)] {:f :read :value [k nil]}))
     :check-opts {}}))
