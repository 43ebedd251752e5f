# Charts of the tilejit-bench run in bench/results/cpu-amd-2026-12-05-day-e.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-amd-2026-12-05-day-e.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-amd-2026-12-05-day-e.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 33.2157
64 35.0361
EOD
$t0_1 << EOD
64 39.3801
EOD
$t0_2 << EOD
64 49.867
64 46.2747
EOD
$t0_3 << EOD
64 56.476
EOD
$t0_4 << EOD
64 26.0644
EOD
$t0_5 << EOD
64 43.7854
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
64 6.58554
64 6.59711
EOD
$t1_1 << EOD
64 6.03435
EOD
$t1_2 << EOD
64 11.6612
64 11.6302
EOD
$t1_3 << EOD
64 11.8598
EOD
$t1_4 << EOD
64 5.65858
EOD
$t1_5 << EOD
64 11.1495
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
64 8.44477
64 8.43054
EOD
$t2_1 << EOD
64 11.6711
EOD
$t2_2 << EOD
64 10.9016
64 10.7677
EOD
$t2_3 << EOD
64 21.9845
EOD
$t2_4 << EOD
64 4.80835
EOD
$t2_5 << EOD
64 9.26676
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
64 24.9395
64 26.5732
EOD
$t3_1 << EOD
64 27.0392
EOD
$t3_2 << EOD
64 34.2548
64 32.4069
EOD
$t3_3 << EOD
64 35.8536
EOD
$t3_4 << EOD
64 24.2231
EOD
$t3_5 << EOD
64 31.6337
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
"cpu/sum: tilejit width-1, 1 thread" 1.18559
"cpu/sum: tilejit width-1, 2 threads" 1.13253
"cpu/sum: tilejit cooperative, 1 thread" 0.743929
"cpu/sum: tilejit cooperative, 2 threads" 0.946207
"cpu/histogram: tilejit width-1, 1 thread" 0.916303
"cpu/histogram: tilejit width-1, 2 threads" 1.01703
"cpu/histogram: tilejit cooperative, 1 thread" 0.857736
"cpu/histogram: tilejit cooperative, 2 threads" 0.958668
"cpu/compact: tilejit width-1, 1 thread" 1.38205
"cpu/compact: tilejit width-1, 2 threads" 2.01664
"cpu/compact: tilejit cooperative, 1 thread" 0.570349
"cpu/compact: tilejit cooperative, 2 threads" 0.860609
"cpu/copy: tilejit width-1, 1 thread" 1.08419
"cpu/copy: tilejit width-1, 2 threads" 1.04668
"cpu/copy: tilejit cooperative, 1 thread" 0.911562
"cpu/copy: tilejit cooperative, 2 threads" 0.976141
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
"ptx/store_doubled_thread_indices" 16.4917
"ptx/multiply_elements" 12.8404
"ptx/row_products" 9.49732
"ptx/replace_rows" 10.7678
"ptx/histogram" 12.3695
"ptx/compact_values" 7.19249
"ptx/large" 1.7007
"ptx-first/store_doubled_thread_indices" 7.42981
"ptx-first/multiply_elements" 8.15012
"ptx-first/row_products" 6.41182
"ptx-first/replace_rows" 6.79449
"ptx-first/histogram" 6.54455
"ptx-first/compact_values" 4.74228
"ptx-first/large" 1.60309
"disk/store_doubled_thread_indices" 2.3463
"disk/store_doubled_thread_indices (CPU)" 7.95793
"disk/multiply_elements" 2.3949
"disk/multiply_elements (CPU)" 8.6621
"disk/row_products" 2.67813
"disk/row_products (CPU)" 7.39126
"disk/replace_rows" 2.67209
"disk/replace_rows (CPU)" 8.84122
"disk/histogram" 2.70452
"disk/histogram (CPU)" 8.50962
"disk/compact_values" 3.45495
"disk/compact_values (CPU)" 9.85759
"disk/large" 5.91578
"disk/large (CPU)" 32.8827
"source/store_doubled_thread_indices" 16.1064
"source-first/store_doubled_thread_indices" 7.59984
"source/multiply_elements" 12.9122
"source-first/multiply_elements" 7.3047
"source/row_products" 9.29031
"source-first/row_products" 6.2034
"source/replace_rows" 10.5124
"source-first/replace_rows" 6.12936
"source/histogram" 11.7788
"source-first/histogram" 7.21544
"source/compact_values" 6.67893
"source-first/compact_values" 4.61965
"source/large" 1.69487
"source-first/large" 1.57105
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
