(ns duro.jepsen.checker.bank
  "The bank workload's checker: transfers move money between accounts and reads snapshot every balance, so
  in a serializable store every read must see each account, no negative balance (transfers :fail rather
  than overdraw), and the constant total.

    {:f :transfer :value {:from a :to b :amount n}}
    {:f :read :value nil}  ok {account balance ...}"
  (:require [duro.jepsen.history :as h]))

(defn- read-errors
  "What is wrong with one :ok read `op` given the accounts and total: a sequence of [type error]."
  [accounts total op]
  (let [balances (:value op)
        seen (set (keys balances))
        expected (set accounts)
        sum (reduce + 0 (vals balances))
        negative (into (sorted-map) (filter #(neg? (val %))) balances)]
    (cond-> []
      (not= seen expected)
      (conj [:wrong-accounts {:op op :missing (vec (sort (remove seen expected)))
                              :unexpected (vec (sort (remove expected seen)))}])
      (not= sum total)
      (conj [:wrong-total {:op op :total sum :expected total}])
      (seq negative)
      (conj [:negative-balance {:op op :negative negative}]))))

(defn check
  "Checks a bank history. Options (the test's): :accounts, a collection of every account, and :total, the
  constant sum of their balances. Returns {:valid? bool, :read-count n, :error-count n, :errors {type [error
  ...]}, :first-error error} where type is :wrong-total, :negative-balance or :wrong-accounts and an error
  names its read :op."
  [history {:keys [accounts total]}]
  (let [reads (->> (h/ops-with-f #{:read} history)
                   (keep second)
                   (filter h/ok?))
        errors (mapcat (partial read-errors accounts total) reads)]
    (cond-> {:valid? (empty? errors)
             :read-count (count reads)
             :error-count (count errors)
             :errors (reduce (fn [m [type e]] (update m type (fnil conj []) e)) (sorted-map) errors)}
      (seq errors) (assoc :first-error (second (first errors))))))
