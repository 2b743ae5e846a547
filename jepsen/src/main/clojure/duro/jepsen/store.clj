(ns duro.jepsen.store
  "Run directories and the files in them. History files are written by duro.jepsen.history when it offers
  write-edn! / write-jsonl!, else by the plain writers here (same format)."
  (:require [clojure.data.json :as json]
            [clojure.java.io :as io]
            [clojure.pprint :as pprint])
  (:import (java.time LocalDateTime)
           (java.time.format DateTimeFormatter)))

(defn home [] (io/file (or (System/getenv "DURO_JEPSEN_HOME") "jepsen")))

(defn run-dir
  "A fresh directory jepsen/store/<timestamp>-<workload>-<nemesis>/."
  [workload nemesis]
  (let [ts (.format (LocalDateTime/now) (DateTimeFormatter/ofPattern "yyyyMMdd'T'HHmmss"))
        base (str ts "-" (name workload) "-" nemesis)
        dir (loop [i 0]
              (let [d (io/file (home) "store" (if (zero? i) base (str base "-" i)))]
                (if (.exists d) (recur (inc i)) d)))]
    (.mkdirs dir)
    dir))

(defn- jsonable [x]
  (cond (keyword? x) (name x)
        (map? x) (into {} (map (fn [[k v]] [(if (keyword? k) (name k) (str k)) (jsonable v)]) x))
        (coll? x) (mapv jsonable x)
        :else x))

(defn- fallback-edn! [file history]
  (with-open [w (io/writer file)]
    (binding [*out* w *print-length* nil *print-level* nil]
      (doseq [op history] (prn op)))))

(defn- fallback-jsonl! [file history]
  (with-open [w (io/writer file)]
    (doseq [op history]
      (.write w ^String (json/write-str (jsonable op)))
      (.write w "\n"))))

(defn- history-fn [sym]
  (try (requiring-resolve sym) (catch Throwable _ nil)))

(defn write-history!
  [dir history]
  (let [edn (io/file dir "history.edn")
        jsonl (io/file dir "history.jsonl")]
    ((or (history-fn 'duro.jepsen.history/write-edn!) fallback-edn!) (str edn) history)
    ((or (history-fn 'duro.jepsen.history/write-jsonl!) fallback-jsonl!) (str jsonl) history)))

(defn write-edn! [file x]
  (with-open [w (io/writer file)]
    (binding [*out* w *print-length* nil *print-level* nil]
      (pprint/pprint x))))
