(ns duro.jepsen.workload.bank
  "Bank: accounts whose balances sum to a fixed total. Transfers move money between two accounts (mostly on
  different partitions) in one transaction; reads read every balance in one linearizable read-only
  transaction. Every read must see the total, and no balance may go negative."
  (:require [duro.jepsen.client :as client]))

(defn workload
  [{:keys [^java.util.Random rng accounts total] :or {accounts 8 total 800}} _view-partition]
  (let [accts (vec (range accounts))
        gen (fn []
              (locking rng
                (if (< (.nextDouble rng) 0.3)
                  {:f :read :value nil}
                  (let [from (.nextInt rng accounts)
                        to (mod (+ from 1 (.nextInt rng (dec accounts))) accounts)]
                    {:f :transfer :value {:from from :to to :amount (inc (.nextInt rng 5))}}))))]
    {:name :bank
     :generator gen
     :client (partial client/bank accts)
     :setup! (fn [c deadline-ns] (client/bank-setup! c accts (quot total accounts) deadline-ns))
     :final-ops (fn [] [{:f :read :value nil}])
     :check-opts {:accounts accts :total total :negative-balances? false}}))
