(ns duro.jepsen.runner
  "Runs one test: a fresh cluster on the hosts, concurrent workers issuing the workload's operations at a
  bounded rate while the nemesis injects faults, a quiet phase after everything is healed, the final reads,
  then the checkers. Writes history.edn/.jsonl, nemesis.edn, results.edn, timeline.png and the node logs
  into the run directory."
  (:require [clojure.java.io :as io]
            [clojure.string :as str]
            [duro.jepsen.checks :as checks]
            [duro.jepsen.db :as db]
            [duro.jepsen.history :as history]
            [duro.jepsen.nemesis :as nemesis]
            [duro.jepsen.net :as net]
            [duro.jepsen.store :as store]
            [duro.jepsen.timeline :as timeline]
            [duro.jepsen.util :as u]
            [duro.jepsen.workload.bank :as bank]
            [duro.jepsen.workload.list-append :as list-append]
            [duro.jepsen.workload.predicate :as predicate]
            [duro.jepsen.workload.register :as register]
            [duro.jepsen.workload.set :as set-wl])
  (:import (dev.duro.client DuroClient)
           (dev.duro.core Bytes)
           (java.util Random)
           (java.util.concurrent ConcurrentLinkedQueue)))

(def workloads
  {:list-append list-append/workload
   :register register/workload
   :bank bank/workload
   :set set-wl/workload
   :predicate predicate/workload})

(defn- nemesis-label
  "partition+kill: no commas, as the run directory holds the nodes' data directories and Ratis reads a comma
  in its storage path as a list separator."
  [kinds]
  (if (seq kinds) (str/join "+" (map name kinds)) "none"))

(defn- exp-sleep-ms
  "An exponential pause whose mean keeps all workers together at rate ops/s."
  [^Random rng concurrency rate]
  (let [mean (/ (* 1000.0 concurrency) rate)]
    (long (min (* 5 mean) (* mean (- (Math/log (- 1.0 (.nextDouble rng)))))))))

(defn run-test
  "Runs one test; returns a summary map (see the end)."
  [{:keys [workload nemesis time-limit concurrency rate nodes partitions seed quiet-s] :as opts}]
  (let [hosts (net/hosts)
        nodes (vec (take nodes (:nodes hosts)))
        dir (store/run-dir workload (nemesis-label nemesis))
        rng (Random. (long seed))
        test {:dir dir :hosts hosts :nodes nodes :partitions partitions
              :snapshot-every (:snapshot-every opts 200)
              :settings (:settings opts {})
              :tls (boolean (:tls opts))
              :request-timeout-ms (:request-timeout-ms opts 5000)
              :procs (atom {})}
        queue (ConcurrentLinkedQueue.)
        timeline-windows (atom [])
        final-from (atom nil)
        stop-workers? (atom false)
        cut-probe (atom nil)
        summary (atom {:workload workload :nemesis (nemesis-label nemesis) :dir (str dir)})]
    (u/log "==== test" (name workload) "x" (nemesis-label nemesis) "for" time-limit "s ->" (str dir))
    (spit (io/file dir "test.edn") (pr-str (dissoc opts :rng)))
    (try
      (db/setup! test)
      (u/log "cluster ready")
      (let [start-ns (System/nanoTime)
            test (assoc test :start-ns start-ns)
            now #(- (System/nanoTime) start-ns)
            record! (fn [op] (let [op (assoc op :time (now))] (.add queue op) op))
            view-client (db/client test)
            view (.refreshCluster view-client)
            wl ((workloads workload) {:rng (Random. (.nextLong rng))}
                (fn [^String k] (.partitionOf view (Bytes/utf8 k))))
            _ (when-let [setup (:setup! wl)]
                (setup view-client (+ (System/nanoTime) (* 60 1000000000))))
            end-ns (* time-limit 1000000000)
            quiet-ns (* quiet-s 1000000000)
            counts (atom {:ok 0 :fail 0 :info 0})
            invoke! (fn [client process op]
                      (let [inv (record! (assoc op :type :invoke :process process))
                            done (try ((:client wl) client inv)
                                      (catch Throwable t
                                        (assoc inv :type :info :error [:harness (str t)])))
                            done (record! (assoc done :process process :f (:f op)))]
                        (swap! counts update (:type done) inc)
                        done))
            worker (fn [w]
                     (future
                       (let [wrng (Random. (+ seed 1000 w))
                             client (db/client test)]
                         (try
                           (loop [process w]
                             (u/sleep-ms (exp-sleep-ms wrng concurrency rate))
                             (if @stop-workers?
                               process
                               (let [done (invoke! client process ((:generator wl)))]
                                 (if (= :info (:type done))
                                   (do (try (.refreshCluster ^DuroClient client) (catch Exception _))
                                       (recur (+ process concurrency)))
                                   (recur process)))))
                           (finally (.close ^DuroClient client))))))
            nemesis-thread (future
                             (nemesis/run-schedule! test {:kinds nemesis :rng (Random. (.nextLong rng))
                                                 :record! (fn [op] (record! (assoc op :process :nemesis)))
                                                 :timeline timeline-windows
                                                 :end-ns end-ns}))
            workers (mapv worker (range concurrency))
            progress (future
                       (loop []
                         (Thread/sleep 10000)
                         (when-not @stop-workers?
                           (let [c @counts]
                             (u/log (format "  %3ds  ok %d  fail %d  info %d" (quot (now) 1000000000)
                                            (:ok c) (:fail c) (:info c))))
                           (recur))))]
        ;; fault phase, then heal, then a quiet phase with the workload still running
        (u/sleep-ms (quot end-ns 1000000))
        @nemesis-thread
        (u/log "healed; quiet phase" quiet-s "s")
        (let [quiet-from (now)]
          (try (db/await-ready! test 60) (catch Exception e (u/log "cluster not ready after heal:" (str e))))
          (u/sleep-ms (* 1000 quiet-s))
          (reset! stop-workers? true)
          (let [last-procs (mapv deref workers)
                final-process (inc (reduce max concurrency last-procs))]
            (future-cancel progress)
            ;; final reads, retried until ok (each attempt is in the history)
            (reset! final-from (now))
            (with-open [client (db/client test)]
              (doseq [[i op] (map-indexed vector ((:final-ops wl)))]
                (loop [attempt 1 process final-process]
                  (let [done (invoke! client process (assoc op :final? true :final-id i))]
                    (when (and (not= :ok (:type done)) (< attempt 20))
                      (u/sleep-ms 2000)
                      (recur (inc attempt) (if (= :info (:type done)) (+ process concurrency) process)))))))
            (.close view-client)
            (let [probe (try (db/probe-cuts test) (catch Throwable t {:error (str t)}))]
              (reset! cut-probe probe)
              (u/log "linearizable cut per node:" (pr-str probe)))
            (let [hist (history/index (vec (sort-by :time (seq queue))))
                  ;; sort is stable and times are taken in order per thread; index afterwards
                  _ (u/log "history:" (count hist) "operations; stopping nodes")
                  _ (db/teardown! test)
                  _ (store/write-history! dir hist)
                  _ (store/write-edn! (io/file dir "nemesis.edn")
                                      (mapv (fn [w] (-> w
                                                        (assoc :start-s (/ (:start-ns w) 1e9) :stop-s (/ (:stop-ns w) 1e9))))
                                            @timeline-windows))
                  check-opts (merge (:check-opts wl) {:quiet-from-ns quiet-from :workload workload
                                                      :cut-probe @cut-probe})
                  result (checks/check workload check-opts hist)
                  _ (store/write-edn! (io/file dir "results.edn") (assoc result :check-opts check-opts))
                  _ (try (timeline/render! (io/file dir "timeline.png")
                                           {:title (str (name workload) " x " (nemesis-label nemesis))
                                            :history hist :windows @timeline-windows :result result
                                            :marks (cond-> [{:t-s (/ quiet-from 1e9) :label "healed: quiet phase"}]
                                                     @final-from (conj {:t-s (/ @final-from 1e9) :label "final reads"}))})
                         (catch Throwable t (u/log "timeline failed:" (str t))))
                  c (frequencies (map :type (remove #(or (= :invoke (:type %)) (= :nemesis (:process %))) hist)))
                  anomalies (vec (for [[k r] (:checkers result) :when (false? (:valid? r))] k))]
              (u/log "verdict" (pr-str (:valid? result))
                     (if (seq anomalies) (str "anomalies from " (pr-str anomalies)) "")
                     (if (seq (:unknown result)) (str "unknown: " (pr-str (:unknown result))) ""))
              (swap! summary merge {:ok (c :ok 0) :fail (c :fail 0) :info (c :info 0)
                                    :faults (count @timeline-windows)
                                    :valid? (:valid? result) :anomalies anomalies
                                    :unknown (:unknown result)})))))
      (catch Throwable t
        (u/log "test crashed:" (str t))
        (.printStackTrace t)
        (swap! summary assoc :valid? :crashed :error (str t)))
      (finally
        (reset! stop-workers? true)
        (try (db/teardown! test) (catch Throwable _))
        (try (net/heal! hosts) (catch Throwable _))))
    @summary))
