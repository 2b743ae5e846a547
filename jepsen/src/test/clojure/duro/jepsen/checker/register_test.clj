(ns duro.jepsen.checker.register-test
  (:require [clojure.test :refer [deftest is testing]]
            [duro.jepsen.checker.register :as register]
            [duro.jepsen.fixtures :refer [load-fixture]]
            [duro.jepsen.generate :as gen]))

(def expected
  "Each register fixture's verdict and the keys found not linearizable."
  {"reg-bad-stale-read.edn" [false #{1}]
   "reg-bad-cas.edn" [false #{1}]
   "reg-bad-info.edn" [false #{1}]
   "reg-good-tricky.edn" [true #{}]
   "reg-good-info.edn" [true #{}]})

(deftest fixtures
  (doseq [[file [valid? bad-keys]] expected]
    (testing file
      (let [result (register/check (load-fixture file))]
        (is (= valid? (:valid? result)))
        (is (= bad-keys (set (keys (:failures result)))))
        (doseq [[_ failure] (:failures result)]
          (is (string? (:explanation failure)))
          (is (= :ok (:type (:op failure)))))))))

(deftest keys-are-checked-separately
  (is (= 2 (:keys-checked (register/check (load-fixture "reg-bad-stale-read.edn")))))
  (is (= 2 (:keys-checked (register/check (load-fixture "reg-good-info.edn"))))))

(deftest stale-read-failure-names-the-read
  (let [{:keys [op]} (get-in (register/check (load-fixture "reg-bad-stale-read.edn")) [:failures 1])]
    (is (= [:read [1 nil]] [(:f op) (:value op)]))))

(deftest an-exhausted-budget-is-unknown
  (let [history (gen/register-history {:seed 3 :ops 200 :processes 8 :keys 1 :values 3})]
    (is (= :unknown (:valid? (register/check history {:budget 5}))))
    (is (true? (:valid? (register/check history))))))

(deftest the-model
  (is (= 3 (register/step 3 {:f :read :value 3 :ok? true})))
  (is (= ::register/illegal (register/step 3 {:f :read :value 4 :ok? true})))
  (is (= 4 (register/step 3 {:f :cas :value [3 4] :ok? true})))
  (is (= ::register/illegal (register/step 2 {:f :cas :value [3 4] :ok? true})))
  (is (= 2 (register/step 2 {:f :cas :value [3 4] :ok? false}))))
