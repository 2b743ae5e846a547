(ns duro.jepsen.checker.cross-check-test
  "Our checkers against independent ones: the register checker against porcupine on every register fixture,
  the list-append checker against adya on every list-append fixture. These run whenever go and cargo are
  installed; the first run builds porcupine's driver and installs adya under target/."
  (:require [clojure.test :refer [deftest is testing]]
            [duro.jepsen.checker.adya :as adya]
            [duro.jepsen.checker.linearizable :as linearizable]
            [duro.jepsen.checker.porcupine :as porcupine]
            [duro.jepsen.checker.register-test :as register-test]
            [duro.jepsen.checker.list-append-test :as list-append-test]
            [duro.jepsen.fixtures :refer [fixture-names load-fixture skip-unless]]))

(deftest every-fixture-has-an-expectation
  (is (= (set (fixture-names "reg-")) (set (keys register-test/expected))))
  (is (= (set (fixture-names "la-")) (set (keys list-append-test/expected)))))

(deftest porcupine-agrees-on-register-fixtures
  (skip-unless porcupine/available? "go"
    (doseq [file (fixture-names "reg-")
            :let [[valid? bad-keys] (register-test/expected file)]]
      (testing file
        (let [result (linearizable/check (load-fixture file))]
          (is (:agree? result) (:explanation result))
          (is (= valid? (:valid? result)))
          (is (= valid? (get-in result [:porcupine :valid?])))
          (is (= bad-keys (set (keep (fn [[k v]] (when (false? v) k)) (get-in result [:porcupine :per-key]))))))))))

(deftest adya-agrees-on-list-append-fixtures
  (skip-unless adya/available? "cargo"
    (doseq [file (fixture-names "la-")
            :let [[types serializable?] (list-append-test/expected file)]
            model [:strict-serializable :serializable]]
      (testing (str file " " model)
        (let [result (adya/cross-check (load-fixture file) {:consistency-model model})]
          (is (:agree? result) (:explanation result))
          (is (= (if (= model :serializable) serializable? (empty? types)) (:valid? result)))
          (when (= model :strict-serializable)
            (is (:same-types? result) (pr-str (:anomaly-types (:adya result))))))))))

(deftest adya-agrees-on-direct-anomalies
  (skip-unless adya/available? "cargo"
    (doseq [type [:duplicate-elements :internal :future-read]]
      (testing type
        (let [result (adya/cross-check (list-append-test/direct-cases type))]
          (is (:agree? result) (:explanation result))
          (is (:same-types? result)))))))
