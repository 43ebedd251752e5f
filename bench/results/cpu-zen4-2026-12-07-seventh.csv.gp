# Charts of the tilejit-bench run in bench/results/cpu-zen4-2026-12-07-seventh.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-zen4-2026-12-07-seventh.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-zen4-2026-12-07-seventh.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 21.4193
64 23.5064
EOD
$t0_1 << EOD
64 20.2744
EOD
$t0_2 << EOD
64 43.475
64 45.1763
EOD
$t0_3 << EOD
64 36.4135
EOD
$t0_4 << EOD
64 23.3977
EOD
$t0_5 << EOD
64 42.1311
EOD
set output outdir.'/throughput_cpu_sum.png'
set title 'cpu/sum: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t0_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t0_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t0_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t0_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t0_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t0_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/histogram
$t1_0 << EOD
64 6.48803
64 6.55944
EOD
$t1_1 << EOD
64 7.6196
EOD
$t1_2 << EOD
64 11.1929
64 11.2753
EOD
$t1_3 << EOD
64 14.6334
EOD
$t1_4 << EOD
64 7.22173
EOD
$t1_5 << EOD
64 13.7615
EOD
set output outdir.'/throughput_cpu_histogram.png'
set title 'cpu/histogram: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t1_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t1_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t1_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t1_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t1_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t1_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/compact
$t2_0 << EOD
64 8.33338
64 8.39457
EOD
$t2_1 << EOD
64 10.5177
EOD
$t2_2 << EOD
64 9.38042
64 9.40312
EOD
$t2_3 << EOD
64 16.2232
EOD
$t2_4 << EOD
64 7.40077
EOD
$t2_5 << EOD
64 12.1052
EOD
set output outdir.'/throughput_cpu_compact.png'
set title 'cpu/compact: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t2_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t2_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t2_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t2_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t2_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t2_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/copy
$t3_0 << EOD
64 25.8354
64 25.1153
EOD
$t3_1 << EOD
64 29.3594
EOD
$t3_2 << EOD
64 37.6121
64 44.5623
EOD
$t3_3 << EOD
64 46.2067
EOD
$t3_4 << EOD
64 24.7309
EOD
$t3_5 << EOD
64 42.8966
EOD
set output outdir.'/throughput_cpu_copy.png'
set title 'cpu/copy: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t3_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t3_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t3_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t3_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t3_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t3_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- ratios to the reference
$ratio_throughput << EOD
"cpu/sum: tilejit width-1, 1 thread" 0.946545
"cpu/sum: tilejit width-1, 2 threads" 0.837572
"cpu/sum: tilejit cooperative, 1 thread" 0.995379
"cpu/sum: tilejit cooperative, 2 threads" 0.932593
"cpu/histogram: tilejit width-1, 1 thread" 1.17441
"cpu/histogram: tilejit width-1, 2 threads" 1.30738
"cpu/histogram: tilejit cooperative, 1 thread" 1.10097
"cpu/histogram: tilejit cooperative, 2 threads" 1.2205
"cpu/compact: tilejit width-1, 1 thread" 1.26211
"cpu/compact: tilejit width-1, 2 threads" 1.72948
"cpu/compact: tilejit cooperative, 1 thread" 0.881614
"cpu/compact: tilejit cooperative, 2 threads" 1.28736
"cpu/copy: tilejit width-1, 1 thread" 1.1364
"cpu/copy: tilejit width-1, 2 threads" 1.22851
"cpu/copy: tilejit cooperative, 1 thread" 0.984695
"cpu/copy: tilejit cooperative, 2 threads" 0.96262
EOD
set output outdir.'/ratio_throughput.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_throughput using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0

# ---- ratios to the reference
$ratio_compile << EOD
"ptx/store_doubled_thread_indices" 17.3438
"ptx/multiply_elements" 13.8099
"ptx/row_products" 10.3413
"ptx/replace_rows" 11.8282
"ptx/histogram" 13.0014
"ptx/compact_values" 7.66228
"ptx/large" 1.73103
"ptx-first/store_doubled_thread_indices" 7.48488
"ptx-first/multiply_elements" 7.33033
"ptx-first/row_products" 6.09703
"ptx-first/replace_rows" 6.54314
"ptx-first/histogram" 6.81951
"ptx-first/compact_values" 5.17208
"ptx-first/large" 1.6776
"disk/store_doubled_thread_indices" 3.34103
"disk/store_doubled_thread_indices (CPU)" 10.6986
"disk/multiply_elements" 3.97957
"disk/multiply_elements (CPU)" 17.3543
"disk/row_products" 3.43575
"disk/row_products (CPU)" 6.90893
"disk/replace_rows" 3.51281
"disk/replace_rows (CPU)" 9.90729
"disk/histogram" 3.43307
"disk/histogram (CPU)" 9.40592
"disk/compact_values" 3.88262
"disk/compact_values (CPU)" 8.94704
"disk/large" 8.02179
"disk/large (CPU)" 32.5045
"source/store_doubled_thread_indices" 10.9599
"source-first/store_doubled_thread_indices" 7.14031
"source/multiply_elements" 10.9923
"source-first/multiply_elements" 6.95255
"source/row_products" 9.18502
"source-first/row_products" 4.69901
"source/replace_rows" 10.4006
"source-first/replace_rows" 6.29474
"source/histogram" 12.7619
"source-first/histogram" 6.45625
"source/compact_values" 7.42476
"source-first/compact_values" 4.93774
"source/large" 1.65888
"source-first/large" 1.58995
EOD
set output outdir.'/ratio_compile.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_compile using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0
