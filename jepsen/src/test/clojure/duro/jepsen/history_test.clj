(ns duro.jepsen.history-test
  (:require [clojure.test :refer [deftest is]]
            [duro.jepsen.history :as h]))

(deftest index-numbers-operations-in-order
  (is (= [0 1] (map :index (h/index [{:type :invoke} {:type :ok}])))))
