(ns duro.jepsen.checker.set-test
  (:require [clojure.test :refer [deftest is testing]]
            [duro.jepsen.checker.set :as set-checker]
            [duro.jepsen.fixtures :refer [load-fixture]]))

(deftest lost-element
  (let [r (set-checker/check (load-fixture "set-lost.edn"))]
    (is (false? (:valid? r)))
    (is (= {:lost [2] :lost-count 1 :unexpected [] :recovered [3] :recovered-count 1 :attempt-count 5
            :ok-count 2 :info-count 2 :fail-count 1}
           (select-keys r [:lost :lost-count :unexpected :recovered :recovered-count :attempt-count :ok-count
                           :info-count :fail-count])))))

(deftest unexpected-elements
  (let [r (set-checker/check (load-fixture "set-unexpected.edn"))]
    (is (false? (:valid? r)))
    (is (= [5 9] (:unexpected r)))
    (is (= [] (:lost r)))))

(deftest valid
  (let [r (set-checker/check (load-fixture "set-valid.edn"))]
    (is (true? (:valid? r)))
    (is (= [3] (:recovered r)))
    (is (= 2 (:info-count r)))
    (is (= 3 (:read-count r)))))

(deftest no-final-read-is-unknown
  (is (= :unknown (:valid? (set-checker/check [{:type :invoke :f :add :value 1 :process 0 :index 0}])))))

(deftest duplicates-are-invalid
  (let [history [{:type :invoke :f :add :value 1 :process 0 :index 0}
                 {:type :ok :f :add :value 1 :process 0 :index 1}
                 {:type :invoke :f :read :process 0 :index 2}
                 {:type :ok :f :read :value [1 1] :process 0 :index 3}]]
    (is (= [1] (:duplicated (set-checker/check history))))
    (is (false? (:valid? (set-checker/check history))))))
