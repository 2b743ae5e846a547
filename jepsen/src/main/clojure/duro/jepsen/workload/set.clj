(ns duro.jepsen.workload.set
  "Set: unique elements 0, 1, 2 ... each added by a transaction writing key set/<x>; a final linearizable
  read-only transaction reads every key that may have been added. Every acknowledged add must be present.")

(defn workload
  [_opts _view-partition]
  (let [next-x (atom -1)
        gen (fn [] {:f :add :value (swap! next-x inc)})
        client (requiring-resolve 'duro.jepsen.client/set-client)]
    {:name :set
     :generator gen
     :client (partial @client (fn [] (max 0 @next-x)))
     :final-ops (fn [] [{:f :read :value nil}])
     :check-opts {}}))
