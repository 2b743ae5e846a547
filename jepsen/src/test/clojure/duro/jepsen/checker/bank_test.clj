(ns duro.jepsen.checker.bank-test
  (:require [clojure.test :refer [deftest is testing]]
            [duro.jepsen.checker.bank :as bank]
            [duro.jepsen.fixtures :refer [load-fixture]]))

(def opts {:accounts [0 1 2] :total 30})

(deftest fixtures
  (testing "a negative balance"
    (let [r (bank/check (load-fixture "bank-negative.edn") opts)]
      (is (false? (:valid? r)))
      (is (= [:negative-balance] (keys (:errors r))))
      (is (= {0 -5} (get-in r [:errors :negative-balance 0 :negative])))))
  (testing "a wrong total"
    (let [r (bank/check (load-fixture "bank-wrong-total.edn") opts)]
      (is (false? (:valid? r)))
      (is (= [:wrong-total] (keys (:errors r))))
      (is (= 25 (get-in r [:first-error :total])))))
  (testing "valid"
    (is (= {:valid? true :read-count 2 :error-count 0 :errors {}}
           (bank/check (load-fixture "bank-valid.edn") opts)))))

(deftest missing-and-unexpected-accounts
  (let [history [{:type :invoke :f :read :process 0 :index 0}
                 {:type :ok :f :read :process 0 :value {0 10 1 10 7 10} :index 1}]
        r (bank/check history opts)]
    (is (= [:wrong-accounts] (keys (:errors r))))
    (is (= {:missing [2] :unexpected [7]} (select-keys (:first-error r) [:missing :unexpected])))))
