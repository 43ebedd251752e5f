# Charts of the tilejit-bench run in bench/results/cpu-amd-2026-12-04-night-d.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-amd-2026-12-04-night-d.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-amd-2026-12-04-night-d.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 98.5874
64 20.9484
EOD
$t0_1 << EOD
64 23.8955
EOD
$t0_2 << EOD
4 35.0683
64 25.2782
EOD
$t0_3 << EOD
64 29.2078
EOD
$t0_4 << EOD
4 78.8625
EOD
$t0_5 << EOD
4 58.4678
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
4 6.70034
64 6.54263
EOD
$t1_1 << EOD
64 5.96315
EOD
$t1_2 << EOD
4 6.53071
64 7.31868
EOD
$t1_3 << EOD
64 6.68731
EOD
$t1_4 << EOD
4 5.62112
EOD
$t1_5 << EOD
4 6.16261
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
4 8.60206
64 8.31295
EOD
$t2_1 << EOD
64 9.76808
EOD
$t2_2 << EOD
4 5.97196
64 5.88893
EOD
$t2_3 << EOD
64 9.22629
EOD
$t2_4 << EOD
4 7.76088
EOD
$t2_5 << EOD
4 8.58188
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
4 97.6339
64 22.103
EOD
$t3_1 << EOD
64 24.602
EOD
$t3_2 << EOD
4 53.4752
64 24.6561
EOD
$t3_3 << EOD
64 25.5329
EOD
$t3_4 << EOD
4 84.4409
EOD
$t3_5 << EOD
4 67.5297
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
"cpu/sum: tilejit width-1, 1 thread" 1.14069
"cpu/sum: tilejit width-1, 2 threads" 1.15546
"cpu/sum: tilejit cooperative, 1 thread" 0.799925
"cpu/sum: tilejit cooperative, 2 threads" 1.66726
"cpu/histogram: tilejit width-1, 1 thread" 0.911431
"cpu/histogram: tilejit width-1, 2 threads" 0.913731
"cpu/histogram: tilejit cooperative, 1 thread" 0.838931
"cpu/histogram: tilejit cooperative, 2 threads" 0.943635
"cpu/compact: tilejit width-1, 1 thread" 1.17504
"cpu/compact: tilejit width-1, 2 threads" 1.56672
"cpu/compact: tilejit cooperative, 1 thread" 0.902212
"cpu/compact: tilejit cooperative, 2 threads" 1.43703
"cpu/copy: tilejit width-1, 1 thread" 1.11306
"cpu/copy: tilejit width-1, 2 threads" 1.03556
"cpu/copy: tilejit cooperative, 1 thread" 0.864872
"cpu/copy: tilejit cooperative, 2 threads" 1.26282
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
"ptx/store_doubled_thread_indices" 18.2073
"ptx/multiply_elements" 14.121
"ptx/row_products" 9.07046
"ptx/replace_rows" 11.834
"ptx/histogram" 14.0597
"ptx/compact_values" 8.20066
"ptx/large" 1.66291
"ptx-first/store_doubled_thread_indices" 6.98862
"ptx-first/multiply_elements" 7.50693
"ptx-first/row_products" 4.87688
"ptx-first/replace_rows" 8.42331
"ptx-first/histogram" 6.30079
"ptx-first/compact_values" 5.31978
"ptx-first/large" 2.10077
"disk/store_doubled_thread_indices" 2.23131
"disk/store_doubled_thread_indices (CPU)" 7.13198
"disk/multiply_elements" 2.63558
"disk/multiply_elements (CPU)" 7.97533
"disk/row_products" 3.22297
"disk/row_products (CPU)" 6.88916
"disk/replace_rows" 2.63071
"disk/replace_rows (CPU)" 9.40589
"disk/histogram" 2.57737
"disk/histogram (CPU)" 7.15979
"disk/compact_values" 3.00099
"disk/compact_values (CPU)" 11.0388
"disk/large" 5.71759
"disk/large (CPU)" 32.4888
"source/store_doubled_thread_indices" 18.4457
"source-first/store_doubled_thread_indices" 6.54228
"source/multiply_elements" 12.893
"source-first/multiply_elements" 7.29636
"source/row_products" 8.87467
"source-first/row_products" 5.19753
"source/replace_rows" 10.037
"source-first/replace_rows" 8.09971
"source/histogram" 13.6199
"source-first/histogram" 6.51099
"source/compact_values" 7.64878
"source-first/compact_values" 5.19819
"source/large" 1.5343
"source-first/large" 1.98302
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
