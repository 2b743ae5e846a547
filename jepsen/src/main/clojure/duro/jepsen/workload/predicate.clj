(ns duro.jepsen.workload.predicate
  "Predicate reads and phantoms: keys pred/<group>/<id> under a few prefixes (groups), ids unique. An insert
  scans its group's prefix and adds a key only if it saw fewer than `bound` keys; a delete removes, blindly, a
  key whose insert was acknowledged (each key is deleted at most once); a read scans every group in one
  linearizable read-only transaction. Only range certification keeps two concurrent inserts into a group at
  bound - 1 from both committing (write skew through a phantom): a group read with more than `bound` keys, or a
  dependency cycle through the scans, is a serializability violation (duro.jepsen.checker.predicate)."
  (:require [duro.jepsen.client :as client]))

(defn- claim!
  "Takes, at random, an acknowledged and not yet claimed id of `group` out of the pool; nil if none."
  [pool group ^java.util.Random rng]
  (let [picked (volatile! nil)]
    (swap! pool (fn [m]
                  (let [ids (get m group [])]
                    (if (empty? ids)
                      (do (vreset! picked nil) m)
                      (let [i (.nextInt rng (count ids))]
                        (vreset! picked (nth ids i))
                        (assoc m group (into (subvec ids 0 i) (subvec ids (inc i)))))))))
    @picked))

(defn workload
  [{:keys [^java.util.Random rng groups bound] :or {groups 4 bound 5}} _view-partition]
  (let [next-id (atom -1)
        pool (atom {})
        on-inserted (fn [g id] (swap! pool update g (fnil conj []) id))
        insert (fn [g] {:f :insert :value {:group g :id (swap! next-id inc)}})
        gen (fn []
              (locking rng
                (let [g (.nextInt rng groups)
                      x (.nextDouble rng)]
                  (cond
                    (< x 0.2) {:f :read :value nil}
                    (< x 0.45) (if-let [id (claim! pool g rng)]
                                 {:f :delete :value {:group g :id id}}
                                 (insert g))
                    :else (insert g)))))]
    {:name :predicate
     :generator gen
     :client (partial client/predicate groups bound on-inserted)
     :final-ops (fn [] [{:f :read :value nil}])
     :check-opts {:groups groups :bound bound}}))
